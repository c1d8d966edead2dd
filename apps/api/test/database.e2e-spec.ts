import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseTestDatabaseServer, createTestDatabase, LOCAL_POSTGRES_URL, ServerProbes } from '@lnk/shared/testing';
import { startTestApp } from './support/test-app';

describe('choice of the test database', () => {
  const probes = (over: Partial<ServerProbes>): ServerProbes => ({
    env: {},
    dockerAnswers: async () => false,
    startContainer: async () => 'postgres://container/db',
    localPostgresAnswers: async () => false,
    ...over,
  });

  it('takes TEST_DATABASE_URL first, without asking Docker', async () => {
    const dockerAnswers = jest.fn(async () => true);
    await expect(chooseTestDatabaseServer(probes({ env: { TEST_DATABASE_URL: 'postgres://x/y' }, dockerAnswers }))).resolves.toEqual({
      kind: 'postgres',
      adminUrl: 'postgres://x/y',
      source: 'TEST_DATABASE_URL',
    });
    expect(dockerAnswers).not.toHaveBeenCalled();
  });

  it('then a Testcontainers PostgreSQL when a Docker engine answers', async () => {
    await expect(
      chooseTestDatabaseServer(probes({ dockerAnswers: async () => true, localPostgresAnswers: async () => true })),
    ).resolves.toMatchObject({
      source: 'testcontainers',
      adminUrl: 'postgres://container/db',
    });
  });

  it('then the local server on 127.0.0.1:5432', async () => {
    await expect(chooseTestDatabaseServer(probes({ localPostgresAnswers: async () => true }))).resolves.toEqual({
      kind: 'postgres',
      adminUrl: LOCAL_POSTGRES_URL,
      source: 'local',
    });
  });

  it('else embedded PGlite', async () => {
    await expect(chooseTestDatabaseServer(probes({}))).resolves.toEqual({ kind: 'pglite', source: 'pglite' });
  });
});

describe('the app on each database', () => {
  it('migrates and answers /health on embedded PGlite persisting under DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lnk-pglite-'));
    try {
      const t = await startTestApp({ database: { config: { kind: 'pglite', dataDir }, drop: async () => undefined } });
      try {
        const res = await t.request('GET', '/health');
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ status: 'ok', database: 'up' });
        const migrations = await t.dataSource.query('SELECT name FROM migrations');
        expect(migrations.map((m: { name: string }) => m.name)).toContain('IdentityAccounts1763800000000');
      } finally {
        await t.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('migrates and answers /health on PostgreSQL through DATABASE_URL, and 503 once the database is gone', async () => {
    const database = await createTestDatabase();
    if (database.config.kind !== 'postgres') {
      // No PostgreSQL server in this run: the PGlite case above covers the embedded path.
      await database.drop();
      return;
    }
    const url = database.config.url;
    const t = await startTestApp({ env: { DATABASE_URL: url }, database });
    try {
      expect(t.config.database).toMatchObject({ kind: 'postgres', url });
      const up = await t.request('GET', '/health');
      expect(up.status).toBe(200);
      expect(up.body.data).toEqual({ status: 'ok', database: 'up' });
      const tables = await t.dataSource.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
      expect(tables.map((r: { tablename: string }) => r.tablename)).toEqual(
        expect.arrayContaining(['migrations', 'oauth_clients', 'users']),
      );

      // Take the database away under the running app: connections are killed and reconnecting fails.
      await database.drop();
      const down = await t.request('GET', '/health');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', meta: { status: 'error', database: 'down' } });
    } finally {
      await t.close();
      await database.drop();
    }
  });
});
