import {
  answersWithoutDatabase,
  call,
  eventually,
  operatorAccount,
  spawnBuiltApp,
  spawnBuiltRedirect,
  SpawnedApp,
  steadyLink,
  useBuiltApp,
} from '../support/built-app';
import { proxyDatabase, TcpProxy } from '../support/tcp-proxy';
import { asBrowser } from '../support/visitor';

const onServer = process.env['LNK_TEST_DB_KIND'] === 'postgres';
// The stall is made by a TCP proxy between the app and its database server that stops forwarding; the
// embedded database lives inside the app's process and cannot stall apart from it.
const itOnServer = onServer
  ? it
  : (name: string, fn: jest.ProvidesCallback, timeout?: number) =>
      it.skip(`${name} [skipped: needs a PostgreSQL server, LNK_TEST_DB_KIND is not postgres]`, fn, timeout);

function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : NaN;
}

/**
 * Short bounds, so the test waits seconds, not the defaults' tens of seconds. The checks below assert
 * that an answer arrives (before the test's own timeout), never how fast: what is defended is "a 503,
 * not a hang", not a timing bar.
 */
const BOUNDS = {
  DATABASE_STATEMENT_TIMEOUT: '1000',
  DATABASE_LOCK_TIMEOUT: '500',
  DATABASE_CONNECT_TIMEOUT: '1000',
  CLICK_WRITE_TIMEOUT: '2000',
};

/**
 * A database that accepts connections but never answers (a stuck lock, a failover in progress, a full
 * disk), between the app and PostgreSQL: a proxy that keeps every connection and forwards nothing.
 */
describe('the database stalling and answering again', () => {
  let proxy: TcpProxy | undefined;
  const spawned: SpawnedApp[] = [];
  const started = (app: SpawnedApp) => (spawned.push(app), app);

  const fixture = useBuiltApp(async () => {
    for (const app of spawned.reverse()) await app.stop(5000);
    await proxy?.close();
  });

  const proxiedUrl = async () => {
    const { database } = fixture();
    await proxy?.close();
    if (database.config.kind !== 'postgres') throw new Error('expected a PostgreSQL test database');
    const proxied = await proxyDatabase(database.config.url);
    proxy = proxied.proxy;
    return { url: proxied.url, stalling: proxied.proxy };
  };

  itOnServer(
    'answers 503 with Retry-After while it stalls, keeps serving cached redirects and their clicks, and recovers by itself',
    async () => {
      const { dist, db } = fixture();
      const { url, stalling } = await proxiedUrl();
      const { grant } = await operatorAccount(dist, db.env, 'stall');

      const api = started(await spawnBuiltApp(dist, { ...db.env, ...BOUNDS, DATABASE_URL: url, DATABASE_POOL_SIZE: '4' }));
      const { baseUrl } = api;
      // Signed in, a second token never used (nothing of it cached), the link cached by its first redirect, whose click is written.
      const { token, unusedToken, linkId, visits } = await steadyLink(baseUrl, grant, db);
      // Connections are open through the proxy: the stall catches them too, not only new ones.
      expect(stalling.openConnections).toBeGreaterThan(0);
      // A redirect just before the stall: the host's lookup is fresh in the cache.
      expect((await fetch(`${baseUrl}/steady`, { redirect: 'manual', headers: asBrowser() })).status).toBe(302);
      const before = 2;
      await eventually('the clicks before the stall are written', async () => (await visits()) === before);

      stalling.stall();

      // Redirects of the cached link go on; their clicks wait in the buffer while the click writer's own
      // bound fails its writes (the rows are kept, nothing is dropped). First thing in the stall: the
      // default short domain's host is cached as "not a custom domain" for 5 s only (the host cache's
      // not-found TTL), so later on a redirect asks the database again and answers the 503 page (a known limit).
      const during = 25;
      for (let i = 0; i < during; i++) {
        const res = await fetch(`${baseUrl}/steady?utm_source=stall`, { redirect: 'manual', headers: asBrowser() });
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe('https://example.com/steady?utm_source=stall');
      }

      // Reads, a write and a sign-in (with a token cached and one never seen) each answer a 503 envelope
      // with Retry-After: a request's bound (statement, read or connect timeout) turns a silent database
      // into an answer, where it used to wait forever and hold a pooled connection.
      for (const answer of await answersWithoutDatabase(baseUrl, grant, { token, unusedToken }, 'during-stall')) {
        expect(answer).toEqual({
          request: answer.request,
          status: 503,
          body: { status: 503, code: 'SERVICE_UNAVAILABLE', message: expect.any(String) },
          retryAfter: '5',
        });
      }
      // More requests at once than the pool has connections: the ones waiting for a connection are bounded
      // too (the pool's connect timeout), none of them hangs or becomes a 500.
      const burst = await Promise.all(Array.from({ length: 8 }, () => call(baseUrl, 'GET', '/user/link', { token })));
      expect(burst.map((r) => r.status)).toEqual(Array(8).fill(503));

      // The health check is bounded as well: it says the database is down instead of hanging the probe.
      const health = await call(baseUrl, 'GET', '/health');
      expect({ status: health.status, code: health.body?.code, meta: health.body?.meta }).toEqual({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        meta: { status: 'error', database: 'down' },
      });
      expect((await call(baseUrl, 'GET', '/health/ready')).status).toBe(503);
      expect((await call(baseUrl, 'GET', '/health/live')).status).toBe(200);

      // A short URL that is not cached needs the database: the 503 page, not a hang.
      const uncached = await fetch(`${baseUrl}/never-cached`, { redirect: 'manual', headers: asBrowser() });
      expect(uncached.status).toBe(503);
      await eventually(
        'a click write has failed on its bound',
        async () => /clicks kept for the next write: Query read timeout/.test(api.output()),
        30_000,
        250,
      );
      // (lnk_clicks_buffered_rows is not asserted here: while a write is under way its rows are out of the buffer.)
      const metrics = await fetch(`${baseUrl}/metrics`).then((r) => r.text());
      expect(metric(metrics, 'lnk_clicks_dropped_total')).toBe(0);
      expect(await visits()).toBe(before);
      expect(api.running()).toBe(true);

      // The database answers again: the app finds it by itself, no restart.
      stalling.resume();
      await eventually(
        'the API answers 200 again',
        async () => (await call(baseUrl, 'GET', '/user/link', { token: unusedToken })).status === 200,
        30_000,
        250,
      );
      // Every request answers again, not only some: connections broken by the stall left the pool.
      for (let i = 0; i < 8; i++) expect((await call(baseUrl, 'GET', '/user/link', { token })).status).toBe(200);
      expect((await call(baseUrl, 'GET', '/health')).status).toBe(200);
      expect((await call(baseUrl, 'GET', '/health/ready')).status).toBe(200);
      expect(
        (await call(baseUrl, 'POST', '/user/link', { token, body: { url: 'https://example.com/new', slug: 'after-stall' } })).status,
      ).toBe(200);
      expect((await call(baseUrl, 'POST', '/oauth/token', { body: grant })).status).toBe(200);

      // The clicks buffered during the stall are written: exactly those, once (a write cut by its bound
      // was rolled back, not half-applied and then written again).
      await eventually('the buffered clicks are written', async () => (await visits()) === before + during, 30_000, 250);
      const [link] = await db.query<{ clicks: number }>(
        'SELECT COALESCE((SELECT clicks::int FROM link_clicks WHERE link_id = $1), 0) AS clicks',
        [linkId],
      );
      expect(link.clicks).toBe(before + during);
      await eventually(
        'the buffer is empty',
        async () => metric(await fetch(`${baseUrl}/metrics`).then((r) => r.text()), 'lnk_clicks_buffered_rows') === 0,
      );

      // Never a 500: a bound hit is a 503, not an internal error; nothing escaped as an unhandled error.
      expect(api.output()).not.toMatch(/uncaught|unhandled|INTERNAL_ERROR|Internal server error/i);
      expect(api.running()).toBe(true);
      expect(await api.stop()).toEqual({ code: 0, signal: null });
    },
    180_000,
  );

  itOnServer(
    'apps/redirect: answers its 503 page for what it must look up, serves cached links and keeps their clicks, and recovers by itself',
    async () => {
      const { dist, db, database } = fixture();
      if (database.config.kind !== 'postgres') throw new Error('expected a PostgreSQL test database');
      // The API straight on the database (it makes the links), the redirect app through the proxy.
      const { grant } = await operatorAccount(dist, db.env, 'stall-redirect');
      const api = started(await spawnBuiltApp(dist, { ...db.env, DATABASE_URL: database.config.url }));
      const token: string = (await call(api.baseUrl, 'POST', '/oauth/token', { body: grant })).body.data.access_token;
      const created = await call(api.baseUrl, 'POST', '/user/link', {
        token,
        body: { url: 'https://example.com/edge', slug: 'edge-steady' },
      });
      expect(created.status).toBe(200);
      const linkId: string = created.body.data.id;

      const { url, stalling } = await proxiedUrl();
      const redirect = started(
        await spawnBuiltRedirect(dist, { ...BOUNDS, DATABASE_URL: url, DATABASE_POOL_SIZE: '4', SHORT_BASE_URL: api.baseUrl }),
      );
      const visit = (path: string) => fetch(redirect.baseUrl + path, { redirect: 'manual', headers: asBrowser() });
      expect((await visit('/edge-steady')).status).toBe(302);
      const visits = async () =>
        (
          await db.query<{ visits: number }>('SELECT COALESCE(sum(visits), 0)::int AS visits FROM link_daily_stats WHERE link_id = $1', [
            linkId,
          ])
        )[0].visits;
      await eventually('the first click is written', async () => (await visits()) === 1);

      stalling.stall();
      // A link it has to look up: the 503 page within the bound, not a hung visitor.
      const unknown = await visit('/edge-not-cached');
      expect(unknown.status).toBe(503);
      expect(await unknown.text()).toContain('try again shortly');
      // Its health check is bounded: it says the database is down.
      const health = await fetch(`${redirect.baseUrl}/health`);
      expect({ status: health.status, body: await health.json() }).toEqual({
        status: 503,
        body: { status: 'unavailable', database: 'down' },
      });
      // The cached link goes on answering; its clicks are kept.
      const during = 10;
      for (let i = 0; i < during; i++) expect((await visit('/edge-steady')).status).toBe(302);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await visits()).toBe(1);

      stalling.resume();
      await eventually(
        'the redirect app answers a lookup again',
        async () => (await visit('/edge-not-cached')).status === 404,
        30_000,
        250,
      );
      expect((await fetch(`${redirect.baseUrl}/health`)).status).toBe(200);
      await eventually('the buffered clicks are written', async () => (await visits()) === 1 + during, 30_000, 250);
      expect(redirect.output()).not.toMatch(/uncaught|unhandled/i);
      expect(redirect.running()).toBe(true);
      expect(await redirect.stop()).toEqual({ code: 0, signal: null });
    },
    180_000,
  );
});
