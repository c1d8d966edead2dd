import { DataSource } from 'typeorm';
import { connectDatabase, DatabaseConfig } from '@lnk/shared/database';
import { PERSISTENCE_MODULES } from '../database/persistence-modules';

/**
 * The database an operator command works on, migrations applied. The embedded database is opened here
 * only while no other process holds it; while the server runs, the command goes through the socket the
 * server serves it on in DATA_DIR, so what it writes is the server's data at once (two processes opening
 * the same files lose one's writes without an error).
 */
export function openCliDatabase(config: DatabaseConfig): Promise<DataSource> {
  return connectDatabase(config, PERSISTENCE_MODULES, { name: 'an operator command' });
}
