import { DataSource, MixedList } from 'typeorm';
import { DatabaseConfig } from './database-config';
import {
  claimEmbeddedDatabase,
  createPgliteDriver,
  EMBEDDED_SOCKET_PORT,
  EmbeddedDatabaseHolder,
  EmbeddedDatabaseInUseError,
  openPglite,
  privatePgliteHost,
} from '@lnk/shared/embedded-database';
import { poolOptionsOf, QueryBounds, UNBOUNDED } from './query-bounds';
import { withoutPreparedStatements } from './sql';

/**
 * What a context adds to the DataSource: its migrations, nothing else. Repositories speak SQL through
 * typed row decoders (row-decoder.ts), so TypeORM holds no entity metadata: it connects, runs migrations
 * and transactions.
 */
export interface PersistenceModule {
  migrations: (new () => unknown)[];
}

/** How long the pool's connections may take: to connect (or be handed out), and per query (see QueryBounds). */
export interface PoolBounds {
  connectTimeoutMs: number;
  query: QueryBounds;
}

export const DEFAULT_POOL_BOUNDS: PoolBounds = { connectTimeoutMs: 5000, query: UNBOUNDED };

/**
 * Builds the application's DataSource for either database. Migrations are the only way the schema
 * changes (never `synchronize`); the same migrations run on PostgreSQL and PGlite. `bounds` apply to a
 * PostgreSQL server only: the embedded database runs in the process, it cannot stall apart from it.
 */
export function createDataSource(
  config: DatabaseConfig,
  modules: PersistenceModule[],
  holder: EmbeddedDatabaseHolder = { name: 'a process' },
  bounds: PoolBounds = DEFAULT_POOL_BOUNDS,
): DataSource {
  const common = commonOptions(modules);
  if (config.kind === 'postgres') {
    return new DataSource({
      ...common,
      url: config.url,
      poolSize: config.poolSize,
      // Bounds a new connection's start-up and the wait for a connection of a full pool alike.
      connectTimeoutMS: bounds.connectTimeoutMs,
      extra: { idleTimeoutMillis: 30_000, ...poolOptionsOf(bounds.query) },
    });
  }
  const dataDir = config.dataDir;
  if (!dataDir) return new DataSource({ ...common, driver: createPgliteDriver(async () => privatePgliteHost(() => openPglite(null))) });
  // On disk the database belongs to one process: opening it takes the lock (EmbeddedDatabaseInUseError when
  // taken), in a DATA_DIR made private (or refused) first.
  return new DataSource({ ...common, driver: createPgliteDriver(() => claimEmbeddedDatabase(dataDir, holder)) });
}

function commonOptions(modules: PersistenceModule[]) {
  return {
    type: 'postgres' as const,
    entities: [],
    migrations: modules.flatMap((m) => m.migrations) as MixedList<string | (new () => unknown)> as never,
    migrationsRun: false,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
}

/** A client of the embedded database another process holds, through the socket it serves in DATA_DIR. */
export function createSocketDataSource(socketDir: string, modules: PersistenceModule[]): DataSource {
  return withoutPreparedStatements(
    new DataSource({
      ...commonOptions(modules),
      host: socketDir,
      port: EMBEDDED_SOCKET_PORT,
      username: 'postgres',
      database: 'postgres',
      poolSize: 1,
      connectTimeoutMS: 5000,
    }),
  );
}

/**
 * Opens the database and applies pending migrations; an embedded database another process holds (the
 * server, while an operator command runs) is reached through that process instead of being opened twice.
 */
export async function connectDatabase(
  config: DatabaseConfig,
  modules: PersistenceModule[],
  holder: EmbeddedDatabaseHolder,
  bounds: PoolBounds = DEFAULT_POOL_BOUNDS,
): Promise<DataSource> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openOrDestroy(createDataSource(config, modules, holder, bounds));
    } catch (error) {
      // On Windows the holder's lock is a named pipe, which `pg` cannot connect to.
      if (!(error instanceof EmbeddedDatabaseInUseError) || process.platform === 'win32') throw error;
      try {
        return await openOrDestroy(createSocketDataSource(error.socketDir, modules));
      } catch (socketError) {
        // The holder stopped in between: the database is free to open, once.
        const gone = ['ECONNREFUSED', 'ENOENT'].includes((socketError as NodeJS.ErrnoException).code ?? '');
        if (!gone || attempt > 1) throw socketError;
      }
    }
  }
}

async function openOrDestroy(dataSource: DataSource): Promise<DataSource> {
  try {
    return await openDatabase(dataSource);
  } catch (error) {
    // A failed migration must not leave the database (and its lock) held.
    if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
    throw error;
  }
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
