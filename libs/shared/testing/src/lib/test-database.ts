import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DatabaseConfig } from '@lnk/shared/database';

export * from './database-server';

/** Set by the Jest global setup: which server this run uses. */
export const TEST_DB_ENV = { kind: 'LNK_TEST_DB_KIND', adminUrl: 'LNK_TEST_DB_ADMIN_URL', runId: 'LNK_TEST_RUN_ID' } as const;

export interface TestDatabase {
  config: DatabaseConfig;
  /** Drops the database (PostgreSQL) or lets the in-memory PGlite go. */
  drop(): Promise<void>;
}

async function admin<T>(adminUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A fresh, empty database for one test file on the server the run chose, so test files never see each
 * other's rows. Its name carries the run id, so the global teardown can drop whatever a crashed file left.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const kind = process.env[TEST_DB_ENV.kind];
  // `npm run test:unit` sets 'none': the unit loop stays fast only while no unit spec opens a database.
  if (kind === 'none') throw new Error('A unit spec (*.spec.ts) asked for a database: name it *.int-spec.ts, or use the in-memory fakes');
  const adminUrl = process.env[TEST_DB_ENV.adminUrl];
  if (kind !== 'postgres' || !adminUrl) return { config: { kind: 'pglite', dataDir: null }, drop: async () => undefined };
  const name = `lnk_test_${process.env[TEST_DB_ENV.runId] ?? 'adhoc'}_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  return {
    config: { kind: 'postgres', url: withDatabase(adminUrl, name), poolSize: 5 },
    drop: () => admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** Drops every database a run created (the global teardown's safety net). */
export async function dropRunDatabases(adminUrl: string, runId: string): Promise<number> {
  return admin(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`lnk_test_${runId}_%`]);
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    return rows.length;
  });
}
