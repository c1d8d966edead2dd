import { call, eventually, operatorAccount, spawnBuiltApp, spawnBuiltRedirect, SpawnedApp, useBuiltApp } from '../support/built-app';
import { startTcpProxy, TcpProxy } from '../support/tcp-proxy';

const onServer = process.env['LNK_TEST_DB_KIND'] === 'postgres';
// Two instances of the built app share one database: a PostgreSQL server (the embedded one belongs to one process).
const describeOnServer = onServer
  ? describe
  : (name: string, fn: () => void) => describe.skip(`${name} [skipped: needs a PostgreSQL server, LNK_TEST_DB_KIND is not postgres]`, fn);
const REDIS = new URL(process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379');

/**
 * REDIS_OUTAGE_CACHE_TTL of every app here: the longest a cached link, host or token outlives a change made elsewhere while Redis is away.
 */
const OUTAGE_TTL_SECONDS = 2;
/** What a wait for that window allows on top of it: a loaded test machine's scheduling, never the service's. */
const WINDOW_MS = OUTAGE_TTL_SECONDS * 1000 + 2000;
const SECRET_KEY = 'a1'.repeat(32);
/** No request may take longer than this, Redis there or not: a command waiting on Redis forever would. */
const NO_HANG_MS = 5000;

/** One request that fails the test when it has no answer within NO_HANG_MS. */
async function ask(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; form?: Record<string, string>; token?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const response = await fetch(baseUrl + path, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(NO_HANG_MS) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

/** Whether an app serves `use` (invalidations, rate_limits) from Redis now, by its lnk_redis_up gauge. */
async function redisUp(app: SpawnedApp, use: 'invalidations' | 'rate_limits'): Promise<boolean> {
  const text = (await ask(app.baseUrl, 'GET', '/metrics')).text;
  return new RegExp(`^lnk_redis_up\\{use="${use}"\\} 1$`, 'm').test(text);
}

/**
 * Redis (REDIS_URL) going away under two running API instances and a redirect app, and coming back: the
 * apps reach Redis through a TCP proxy the test cuts (every connection dropped, new ones refused) and
 * restores. What rides on Redis: cache invalidations between instances, and the rate-limit counters.
 */
describeOnServer('Redis going away and coming back, with two instances', () => {
  let proxy: TcpProxy | undefined;
  const apps: SpawnedApp[] = [];
  let a: SpawnedApp;
  let b: SpawnedApp;
  let redirect: SpawnedApp;
  let env: Record<string, string>;
  let token: string;
  let linkId: string;
  /** Tokens for the checks, each used by one test only. */
  const spare: string[] = [];

  const fixture = useBuiltApp(async () => {
    await Promise.all(apps.map((app) => app.stop(5000)));
    await proxy?.close();
  });

  const theProxy = () => {
    if (!proxy) throw new Error('the proxy is not started');
    return proxy;
  };
  const nextToken = () => {
    const next = spare.pop();
    if (!next) throw new Error('no spare token left');
    return next;
  };
  const locationOn = async (app: SpawnedApp, path: string) => (await ask(app.baseUrl, 'GET', path)).headers.get('location');
  const moveLink = async (url: string) =>
    expect((await ask(a.baseUrl, 'PUT', `/user/link/${linkId}`, { token, body: { url } })).status).toBe(200);
  const qr = (app: SpawnedApp, withToken: string) =>
    ask(app.baseUrl, 'GET', `/user/link/${linkId}/qr`, { token: withToken }).then((res) => res.status);

  beforeAll(async () => {
    const { dist, db } = fixture();
    proxy = await startTcpProxy({ host: REDIS.hostname, port: Number(REDIS.port || 6379) });
    const proxied = new URL(REDIS.toString());
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const { grant } = await operatorAccount(dist, db.env, 'redis outage');

    // The API budget is wide (the checks poll, every token of one account: one budget); the QR budget, 3
    // per account, is the one the rate-limit checks spend.
    env = {
      ...db.env,
      SECRET_KEY,
      REDIS_URL: proxied.toString(),
      REDIS_OUTAGE_CACHE_TTL: String(OUTAGE_TTL_SECONDS),
      RATE_LIMIT_API: '100000/60',
      RATE_LIMIT_QR: '3/60',
    };
    [a, b] = await Promise.all([spawnBuiltApp(dist, env), spawnBuiltApp(dist, env)]);
    apps.push(a, b);
    const databaseUrl = db.env['DATABASE_URL'] ?? '';
    redirect = await spawnBuiltRedirect(dist, {
      DATABASE_URL: databaseUrl,
      REDIS_URL: proxied.toString(),
      REDIS_OUTAGE_CACHE_TTL: String(OUTAGE_TTL_SECONDS),
      SHORT_BASE_URL: `http://127.0.0.1:${a.port}`,
      RATE_LIMIT_PUBLIC: '3/60',
      TRUST_PROXY: 'true',
    });
    apps.push(redirect);

    const signIn = async () => (await call(a.baseUrl, 'POST', '/oauth/token', { body: grant })).body.data.access_token as string;
    token = await signIn();
    for (let i = 0; i < 5; i++) spare.push(await signIn());
    const created = await call(a.baseUrl, 'POST', '/user/link', { token, body: { url: 'https://example.com/before', slug: 'moving' } });
    expect(created.status).toBe(200);
    linkId = created.body.data.id;
    const locked = await call(a.baseUrl, 'POST', '/user/link', {
      token,
      body: { url: 'https://example.com/locked', slug: 'locked', hasPassword: true, password: 'open sesame' },
    });
    expect(locked.status).toBe(200);
    for (const app of apps) await eventually('every app subscribed through Redis', () => redisUp(app, 'invalidations'));
  }, 180_000);

  // Defends: Redis is a helper, not a dependency. Its loss must not turn answers into 500s or requests that
  // never end (a command queued for a Redis that is not there), in the API or the redirect app.
  it('answers every request while Redis is away, without a 500 and without waiting on it', async () => {
    expect(theProxy().openConnections).toBeGreaterThan(0);
    await theProxy().cut();
    for (const app of [a, b]) {
      await eventually('the instance sees Redis gone', async () => !(await redisUp(app, 'invalidations')), 10_000);
      expect((await ask(app.baseUrl, 'GET', '/health')).status).toBe(200);
      expect((await ask(app.baseUrl, 'GET', '/user/me', { token })).status).toBe(200);
      expect((await ask(app.baseUrl, 'GET', '/user/link', { token })).status).toBe(200);
      expect((await ask(app.baseUrl, 'GET', '/moving')).status).toBe(302);
    }
    // A write publishes its change: fire-and-forget, it must not wait for Redis either.
    const write = await ask(a.baseUrl, 'POST', '/user/link', { token, body: { url: 'https://example.com/during', slug: 'during-outage' } });
    expect(write.status).toBe(200);
    expect((await ask(b.baseUrl, 'GET', '/during-outage')).status).toBe(302);
    expect((await ask(redirect.baseUrl, 'GET', '/during-outage')).status).toBe(302);
    expect((await ask(redirect.baseUrl, 'GET', '/health')).status).toBe(200);
    expect(await redisUp(redirect, 'invalidations')).toBe(false);
  });

  // Defends: the limits hold during the outage. Counters that let every request through while Redis is
  // away would hand a flood the whole service; each instance counts its own hits with the same limits.
  it('keeps rate limits while Redis is away, counted in each instance with the same budget', async () => {
    const tokenForQr = nextToken();
    const onA = [await qr(a, tokenForQr), await qr(a, tokenForQr), await qr(a, tokenForQr), await qr(a, tokenForQr)];
    expect(onA).toEqual([200, 200, 200, 429]);
    // Per instance: b has not seen these hits, and grants the same budget again.
    const onB = [await qr(b, tokenForQr), await qr(b, tokenForQr), await qr(b, tokenForQr), await qr(b, tokenForQr)];
    expect(onB).toEqual([200, 200, 200, 429]);

    // The redirect app's password form: its public budget (3 posts per address) counted in the process too.
    const post = () =>
      ask(redirect.baseUrl, 'POST', '/locked', { form: { password: 'wrong' }, headers: { 'x-forwarded-for': '198.51.100.7' } }).then(
        (res) => res.status,
      );
    const posts = [];
    for (let i = 0; i < 4; i++) posts.push(await post());
    expect(posts.slice(0, 3)).not.toContain(429);
    expect(posts[3]).toBe(429);
  });

  // Defends: revocation fails closed. Another instance's cache of accepted tokens must not keep a revoked
  // token working for longer than REDIS_OUTAGE_CACHE_TTL while the message that would empty it is lost.
  it('refuses a token revoked on one instance on the other within the outage window', async () => {
    const revoked = nextToken();
    expect((await ask(b.baseUrl, 'GET', '/user/me', { token: revoked })).status).toBe(200); // now cached on b
    expect((await ask(a.baseUrl, 'POST', '/oauth/revoke', { body: { token: revoked } })).status).toBe(200);
    expect((await ask(a.baseUrl, 'GET', '/user/me', { token: revoked })).status).toBe(401);
    await eventually(
      'b refuses the revoked token',
      async () => (await ask(b.baseUrl, 'GET', '/user/me', { token: revoked })).status === 401,
      WINDOW_MS,
      50,
    );
  });

  // Defends: a change made on one instance reaches the others' answers within the window, though Redis
  // cannot carry its invalidation (the normal cache time, REDIRECT_CACHE_TTL, is a minute).
  it('serves a link changed on one instance fresh on the other instance and the redirect app within the outage window', async () => {
    expect(await locationOn(b, '/moving')).toBe('https://example.com/before');
    expect(await locationOn(redirect, '/moving')).toBe('https://example.com/before');
    await moveLink('https://example.com/during');
    await eventually(
      'b answers the new destination',
      async () => (await locationOn(b, '/moving')) === 'https://example.com/during',
      WINDOW_MS,
      50,
    );
    await eventually(
      'the redirect app answers the new destination',
      async () => (await locationOn(redirect, '/moving')) === 'https://example.com/during',
      WINDOW_MS,
      50,
    );
  });

  // Defends: an instance started while Redis is away starts (no crash, no hang on the subscription) and
  // joins the others once Redis is back.
  it('starts another instance while Redis is away', async () => {
    const c = await spawnBuiltApp(fixture().dist, env);
    apps.push(c);
    expect((await ask(c.baseUrl, 'GET', '/user/me', { token })).status).toBe(200);
    expect(await locationOn(c, '/moving')).toBe('https://example.com/during');
    expect(await redisUp(c, 'invalidations')).toBe(false);
  });

  // Defends: the return. Every app subscribes again by itself and forgets what it cached meanwhile; from
  // then on a change is heard at once again (well inside the minute a cached link lives), and the rate
  // limits are shared by the instances again.
  it('recovers when Redis comes back: invalidations flow at once again and the limits are shared again', async () => {
    await theProxy().restore();
    for (const app of apps) {
      await eventually('every app subscribed again', () => redisUp(app, 'invalidations'), 15_000, 50);
      await eventually('every app counts in Redis again', async () => app === redirect || (await redisUp(app, 'rate_limits')), 15_000, 50);
    }
    const listeners = apps.filter((app) => app !== a);
    for (const app of listeners) expect(await locationOn(app, '/moving')).toBe('https://example.com/during'); // cached, for a minute now
    await moveLink('https://example.com/after');
    for (const app of listeners)
      await eventually(
        'the change is heard at once',
        async () => (await locationOn(app, '/moving')) === 'https://example.com/after',
        1000,
        25,
      );

    const revoked = nextToken();
    expect((await ask(b.baseUrl, 'GET', '/user/me', { token: revoked })).status).toBe(200);
    expect((await ask(a.baseUrl, 'POST', '/oauth/revoke', { body: { token: revoked } })).status).toBe(200);
    await eventually(
      'b refuses the revoked token at once',
      async () => (await ask(b.baseUrl, 'GET', '/user/me', { token: revoked })).status === 401,
      1000,
      25,
    );

    // One budget of 3 across the instances again.
    const tokenForQr = nextToken();
    expect([await qr(a, tokenForQr), await qr(b, tokenForQr), await qr(a, tokenForQr), await qr(b, tokenForQr)]).toEqual([
      200, 200, 200, 429,
    ]);
  });
});
