import { createDataSource, openDatabase } from '@lnk/shared/database';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { PERSISTENCE_MODULES } from '@lnk/composition';
import { createAccount } from './support/identity';
import { startTestApp } from './support/test-app';
import { asBrowser } from './support/visitor';

describe('clicks across a graceful shutdown', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  // The counts are read after the app has closed its database, so this needs a server: an embedded
  // in-memory database goes away with the app.
  const itOnServer = process.env['LNK_TEST_DB_KIND'] === 'postgres' ? it : it.skip;

  itOnServer('writes every counted redirect when the app shuts down: N redirects, exactly N visits', async () => {
    const t = await startTestApp({ database });
    const account = await createAccount(t);
    const created = await t.request('POST', '/user/link', {
      token: account.accessToken,
      body: { url: 'https://example.com/', slug: 'burst' },
    });
    const n = 200;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => fetch(`${t.baseUrl}/burst?utm_source=s${i % 3}`, { redirect: 'manual', headers: asBrowser() })),
    );
    expect(answers.every((r) => r.status === 302)).toBe(true);
    await t.close();

    const dataSource = await openDatabase(createDataSource(database.config, PERSISTENCE_MODULES));
    try {
      const [stats] = await dataSource.query('SELECT COALESCE(sum(visits), 0)::int AS visits FROM link_daily_stats WHERE link_id = $1', [
        created.body.data.id,
      ]);
      const [link] = await dataSource.query('SELECT COALESCE((SELECT clicks::int FROM link_clicks WHERE link_id = $1), 0) AS clicks', [
        created.body.data.id,
      ]);
      expect(stats.visits).toBe(n);
      expect(link.clicks).toBe(n);
    } finally {
      await dataSource.destroy();
    }
  });
});
