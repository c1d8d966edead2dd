import {
  answersWithoutDatabase,
  call,
  eventually,
  operatorAccount,
  spawnBuiltApp,
  SpawnedApp,
  steadyLink,
  useBuiltApp,
} from '../support/built-app';
import { proxyDatabase, TcpProxy } from '../support/tcp-proxy';
import { asBrowser } from '../support/visitor';

const onServer = process.env['LNK_TEST_DB_KIND'] === 'postgres';
// The outage is made by cutting a TCP proxy between the app and its database server; the embedded
// database lives inside the app's process and cannot be cut off from it.
const itOnServer = onServer
  ? it
  : (name: string, fn: jest.ProvidesCallback, timeout?: number) =>
      it.skip(`${name} [skipped: needs a PostgreSQL server, LNK_TEST_DB_KIND is not postgres]`, fn, timeout);

function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : NaN;
}

describe('the database going away and coming back', () => {
  let proxy: TcpProxy | undefined;
  let app: SpawnedApp | undefined;

  const fixture = useBuiltApp(async () => {
    await app?.stop(5000);
    await proxy?.close();
  });

  itOnServer(
    'answers 503 while it is away, keeps serving cached redirects and their clicks, and recovers by itself',
    async () => {
      const { dist, database, db } = fixture();
      if (database.config.kind !== 'postgres') throw new Error('expected a PostgreSQL test database');
      const proxied = await proxyDatabase(database.config.url);
      proxy = proxied.proxy;

      const { grant } = await operatorAccount(dist, db.env, 'outage');

      // A one-second cache time: the redirects during the outage come after it (stale if error, below).
      app = await spawnBuiltApp(dist, { ...db.env, DATABASE_URL: proxied.url, DATABASE_POOL_SIZE: '4', REDIRECT_CACHE_TTL: '1' });
      const { baseUrl } = app;
      // Signed in, a second token never used (nothing of it cached), the link cached by its first redirect, whose click is written.
      const { token, unusedToken, linkId, visits } = await steadyLink(baseUrl, grant, db);
      expect(proxy.openConnections).toBeGreaterThan(0);

      // The outage: every connection dropped, new ones refused.
      await proxy.cut();
      const startedAt = Date.now();

      for (const answer of await answersWithoutDatabase(baseUrl, grant, { token, unusedToken }, 'during-outage')) {
        expect(answer).toEqual({
          request: answer.request,
          status: 503,
          body: { status: 503, code: 'SERVICE_UNAVAILABLE', message: expect.any(String) },
          retryAfter: '5',
        });
      }

      const health = await call(baseUrl, 'GET', '/health');
      expect({ status: health.status, code: health.body?.code }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect((await call(baseUrl, 'GET', '/health/ready')).status).toBe(503);
      expect((await call(baseUrl, 'GET', '/health/live')).status).toBe(200);
      // A refused connection is reported at once, not after a timeout.
      expect(Date.now() - startedAt).toBeLessThan(5000);

      // Redirects of the cached link go on, past the cache's time too (its last answer, and the host's, are
      // given again while the database cannot be asked); their clicks wait in the buffer.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const during = 25;
      for (let i = 0; i < during; i++) {
        const res = await fetch(`${baseUrl}/steady?utm_source=outage`, { redirect: 'manual', headers: asBrowser() });
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe('https://example.com/steady?utm_source=outage');
      }
      // Past a tick of the flusher: its write failed, the clicks are kept.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const metrics = await fetch(`${baseUrl}/metrics`).then((r) => r.text());
      expect(metric(metrics, 'lnk_clicks_buffered_rows')).toBeGreaterThan(0);
      expect(metric(metrics, 'lnk_clicks_dropped_total')).toBe(0);
      expect(await visits()).toBe(1);
      expect(app.running()).toBe(true);

      // The database comes back: the app finds it again by itself.
      await proxy.restore();
      await eventually(
        'the API answers 200 again',
        async () => (await call(baseUrl, 'GET', '/user/link', { token: unusedToken })).status === 200,
        15_000,
        250,
      );
      expect((await call(baseUrl, 'GET', '/health')).status).toBe(200);
      expect((await call(baseUrl, 'GET', '/health/ready')).status).toBe(200);
      expect(
        (await call(baseUrl, 'POST', '/user/link', { token, body: { url: 'https://example.com/new', slug: 'after-outage' } })).status,
      ).toBe(200);
      expect((await call(baseUrl, 'POST', '/oauth/token', { body: grant })).status).toBe(200);

      // The clicks buffered during the outage are written: exactly those, once.
      await eventually('the buffered clicks are written', async () => (await visits()) === 1 + during, 15_000, 250);
      const [link] = await db.query<{ clicks: number }>(
        'SELECT COALESCE((SELECT clicks::int FROM link_clicks WHERE link_id = $1), 0) AS clicks',
        [linkId],
      );
      expect(link.clicks).toBe(1 + during);
      const after = await fetch(`${baseUrl}/metrics`).then((r) => r.text());
      expect(metric(after, 'lnk_clicks_buffered_rows')).toBe(0);

      expect(app.running()).toBe(true);
      expect(app.output()).not.toMatch(/uncaught|unhandled/i);
      expect(await app.stop()).toEqual({ code: 0, signal: null });
    },
    90_000,
  );
});
