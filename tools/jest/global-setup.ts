import { randomBytes } from 'node:crypto';
import { chooseTestDatabaseServer, dockerEngineAnswers, tcpAnswers, TEST_DB_ENV } from '../../libs/shared/testing/src/lib/test-database';

type Stoppable = { stop(): Promise<unknown> };
const state = globalThis as typeof globalThis & { __lnkTestContainer?: Stoppable };

/**
 * Chooses the run's PostgreSQL once (every project's config names this file, so it must be idempotent)
 * and tells the test workers through the environment they inherit.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env[TEST_DB_ENV.kind]) return;
  const server = await chooseTestDatabaseServer({
    env: process.env,
    dockerAnswers: () => dockerEngineAnswers(process.env),
    startContainer: async () => {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const container = await new PostgreSqlContainer('postgres:16-alpine').start();
      state.__lnkTestContainer = container;
      return container.getConnectionUri();
    },
    localPostgresAnswers: () => tcpAnswers('127.0.0.1', 5432),
  });
  process.env[TEST_DB_ENV.kind] = server.kind;
  process.env[TEST_DB_ENV.runId] = randomBytes(3).toString('hex');
  if (server.kind === 'postgres') process.env[TEST_DB_ENV.adminUrl] = server.adminUrl;
  const where = server.kind === 'postgres' ? `PostgreSQL from ${server.source}` : 'embedded PGlite (no PostgreSQL server answered)';
  process.stdout.write(`\n[tests] database: ${where}; each test file gets a fresh database, dropped at the end\n`);
}
