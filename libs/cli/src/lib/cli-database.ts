import { DataSource } from 'typeorm';
import { connectDatabase, databaseBounds, DatabaseConfig } from '@lnk/shared/database';
import { PERSISTENCE_MODULES, type AppConfig } from '@lnk/composition';

/**
 * The database an operator command works on, migrations applied. The embedded database is opened here
 * only while no other process holds it; while the server runs, the command goes through the socket the
 * server serves it on in DATA_DIR, so what it writes is the server's data at once (two processes opening
 * the same files lose one's writes without an error). An operator command runs under the migrations'
 * bounds (it migrates, or does an operator's one-off work), not a request's.
 */
export function openCliDatabase(config: DatabaseConfig, settings: AppConfig['databaseBounds']): Promise<DataSource> {
  const bounds = databaseBounds(settings);
  return connectDatabase(
    config,
    PERSISTENCE_MODULES,
    { name: 'an operator command' },
    { connectTimeoutMs: bounds.connectTimeoutMs, query: bounds.migrations },
  );
}
