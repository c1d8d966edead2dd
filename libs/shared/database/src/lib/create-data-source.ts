import { mkdirSync } from 'node:fs';
import { DataSource, EntitySchema, MixedList } from 'typeorm';
import { DatabaseConfig } from './database-config';
import { createPgliteDriver, openPglite } from './pglite-driver';

export interface PersistenceModule {
  entities: EntitySchema[];
  migrations: (new () => unknown)[];
}

/**
 * Builds the application's DataSource for either database. Migrations are the only way the schema
 * changes (never `synchronize`); the same migrations run on PostgreSQL and PGlite.
 */
export function createDataSource(config: DatabaseConfig, modules: PersistenceModule[]): DataSource {
  const entities = modules.flatMap((m) => m.entities);
  const migrations = modules.flatMap((m) => m.migrations) as MixedList<string | (new () => unknown)> as never;
  const common = {
    type: 'postgres' as const,
    entities,
    migrations,
    migrationsRun: false,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (config.kind === 'postgres') {
    return new DataSource({
      ...common,
      url: config.url,
      poolSize: config.poolSize,
      connectTimeoutMS: 5000,
      extra: { idleTimeoutMillis: 30_000 },
    });
  }
  if (config.dataDir) mkdirSync(config.dataDir, { recursive: true });
  return new DataSource({ ...common, driver: createPgliteDriver(() => openPglite(config.dataDir)) });
}

/** Connects and applies every pending migration. */
export async function openDatabase(dataSource: DataSource): Promise<DataSource> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}

export async function isDatabaseUp(dataSource: DataSource): Promise<boolean> {
  if (!dataSource.isInitialized) return false;
  try {
    await dataSource.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
