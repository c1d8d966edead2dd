import { TEST_DB_ENV, createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { buildApp, BuiltDist, eventually, SpawnedApp, spawnBuiltRedirect } from './support/built-app';
import { startWebhookReceiver, until } from './support/webhook-receiver';
import { startDnsServer } from './support/dns-server';
import { visitAs } from './support/visitor';

const redisUrl = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
// The redirect app runs on PostgreSQL only (N copies share it); a run on the embedded database skips this file.
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const onPostgres = process.env[TEST_DB_ENV.kind] === 'postgres';

/**
 * apps/redirect, built and started as production runs it (`node dist/apps/redirect/src/main.js`) beside
 * the API on the same PostgreSQL database and Redis: the API makes links, the redirect app answers them.
 */
(onPostgres ? describe : describe.skip)('the redirect app: short URLs served by an app of their own', () => {
  let database: TestDatabase;
  let api: TestApp;
  let dist: BuiltDist;
  let redirect: SpawnedApp;
  let ada: TestAccount;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    dns = await startDnsServer();
    const env = {
      REDIS_URL: redisUrl,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_POLL_INTERVAL: '20',
      DNS_SERVERS: dns.address,
      DNS_TARGET: 'cname.lnk.test',
    };
    [api, dist] = await Promise.all([startTestApp({ database, env }), buildApp()]);
    ada = await createAccount(api);
    const url = database.config.kind === 'postgres' ? database.config.url : '';
    redirect = await spawnBuiltRedirect(dist, {
      DATABASE_URL: url,
      REDIS_URL: redisUrl,
      SHORT_BASE_URL: api.config.shortBaseUrl,
      CLICK_FLUSH_INTERVAL: '50',
      RATE_LIMIT_PUBLIC: '1000/60',
    });
  }, 180_000);
  afterAll(async () => {
    await redirect?.stop();
    await api?.close();
    await dns?.close();
    await database?.drop();
    dist?.remove();
  });

  const link = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/user/link', { token: ada.accessToken, body });
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data;
  };
  const visit = (path: string, init: RequestInit = {}) => fetch(redirect.baseUrl + path, { redirect: 'manual', ...init });
  /** A new account's domain `name`, verified through the loopback DNS, with one link `slug` to `url` on it. */
  const linkOnVerifiedDomain = async (name: string, slug: string, url: string) => {
    const owner = await createAccount(api);
    const domain = (await api.request('POST', '/user/domain', { token: owner.accessToken, body: { name } })).body.data;
    dns.cnames.set(name, 'cname.lnk.test');
    dns.txts.set(domain.verification.name, [domain.verification.value]);
    expect((await api.request('POST', `/user/domain/${domain.id}/verify`, { token: owner.accessToken })).body.data.isVerified).toBe(true);
    expect((await api.request('POST', '/user/link', { token: owner.accessToken, body: { url, slug, domainId: domain.id } })).status).toBe(
      200,
    );
  };

  it('redirects a link the API made, with only the headers a bodiless redirect needs (no page headers, no minted request id)', async () => {
    await link({ url: 'https://dest.example/landing?ref=site', slug: 'sep-go' });
    const res = await visit('/sep-go?utm_source=mail', { headers: { 'user-agent': BROWSER } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://dest.example/landing?ref=site&utm_source=mail');
    const names = [...res.headers.keys()].filter((n) => !['date', 'connection', 'keep-alive'].includes(n)).sort();
    expect(names).toEqual(['cache-control', 'content-length', 'location']);
    const traced = await visit('/sep-go', { headers: { 'x-request-id': 'trace-7' } });
    expect(traced.headers.get('x-request-id')).toBe('trace-7');
  });

  it('answers 404 for a slug, then 302 as soon as the API creates it (the cached miss is evicted through Redis)', async () => {
    const before = await visit('/sep-later');
    expect(before.status).toBe(404);
    // A document: every page header stays (framing and sniffing defended).
    expect(before.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(before.headers.get('x-frame-options')).toBe('DENY');
    expect(await before.text()).toContain('Link not found');
    await link({ url: 'https://dest.example/later', slug: 'sep-later' });
    await eventually('the redirect app answers the new link', async () => (await visit('/sep-later')).status === 302, 5_000, 50);
  });

  it('follows a change of destination made through the API at once (Redis evicts the cached link)', async () => {
    const made = await link({ url: 'https://dest.example/one', slug: 'sep-change' });
    expect((await visit('/sep-change')).headers.get('location')).toBe('https://dest.example/one');
    await api.request('PUT', `/user/link/${made.id}`, { token: ada.accessToken, body: { url: 'https://dest.example/two' } });
    await eventually(
      'the new destination is answered',
      async () => (await visit('/sep-change')).headers.get('location') === 'https://dest.example/two',
      5_000,
      50,
    );
  });

  // A separate redirect deployment enqueues the clicks' events with its click write, as the API does; it hears
  // of the webhook through Redis at once (its subscriber cache said "nobody" for this owner just before).
  it(
    'enqueues link.clicked for each counted click it answers, and ' + 'link.limit_reached once, for a webhook made through the API',
    async () => {
      const owner = await createAccount(api);
      const plain = (
        await api.request('POST', '/user/link', {
          token: owner.accessToken,
          body: { url: 'https://dest.example/hooked', slug: 'sep-hooked' },
        })
      ).body.data;
      const limited = (
        await api.request('POST', '/user/link', {
          token: owner.accessToken,
          body: { url: 'https://dest.example/limited', slug: 'sep-limited', maxVisits: 3 },
        })
      ).body.data;
      expect((await visit('/sep-hooked', { headers: { 'user-agent': BROWSER } })).status).toBe(302); // before the webhook: no event
      const receiver = await startWebhookReceiver();
      try {
        const made = await api.request('POST', '/user/webhooks', {
          token: owner.accessToken,
          body: { url: receiver.url, events: ['link.clicked', 'link.limit_reached'] },
        });
        expect(made.status).toBe(200);
        for (let i = 0; i < 10; i++) expect((await visit('/sep-hooked', { headers: { 'user-agent': BROWSER } })).status).toBe(302);
        const limitedAnswers = [];
        for (let i = 0; i < 5; i++) limitedAnswers.push((await visit('/sep-limited', { headers: { 'user-agent': BROWSER } })).status);
        expect(limitedAnswers.filter((s) => s === 302)).toHaveLength(3);
        const ofType = (type: string, linkId: string) =>
          receiver.events().filter((e) => e.type === type && (e.data.linkId ?? e.data.id) === linkId);
        await until(
          () =>
            ofType('link.clicked', plain.id).length +
            ofType('link.clicked', limited.id).length +
            ofType('link.limit_reached', limited.id).length,
          (n) => n >= 14,
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(ofType('link.clicked', plain.id)).toHaveLength(10);
        expect(ofType('link.clicked', limited.id)).toHaveLength(3);
        expect(ofType('link.limit_reached', limited.id)).toHaveLength(1);
        // Ids are distinct: the receiver's de-duplication would keep every one.
        expect(new Set(receiver.got.map((g) => g.headers['webhook-id'])).size).toBe(receiver.got.length);
      } finally {
        await receiver.close();
      }
    },
  );

  // Issue 27: a host that was not a verified domain fell back to the default short domain's namespace,
  // so "Host: sep.alice.test." (a verified domain with the trailing dot DNS allows) answered other accounts' slugs.
  it(
    'answers a verified domain however its Host is spelled, and any host that is neither ' +
      'it nor SHORT_BASE_URL’s 404, never the default short domain’s links',
    async () => {
      await linkOnVerifiedDomain('sep.alice.test', 'sep-alice', 'https://dest.example/alice');
      await link({ url: 'https://dest.example/default', slug: 'sep-default' });

      for (const host of ['sep.alice.test.', 'SEP.Alice.TEST.:8080']) {
        expect((await visitAs(redirect.baseUrl, host, '/sep-alice')).location).toBe('https://dest.example/alice');
        expect((await visitAs(redirect.baseUrl, host, '/sep-default')).status).toBe(404);
      }
      for (const host of ['elsewhere.example.net', 'elsewhere.example.net.', 'sep.alice.test..'])
        expect((await visitAs(redirect.baseUrl, host, '/sep-default')).status).toBe(404);
      // SHORT_BASE_URL's host (127.0.0.1), however spelled, serves the default short domain.
      expect((await visitAs(redirect.baseUrl, `127.0.0.1.:${redirect.port}`, '/sep-default')).location).toBe(
        'https://dest.example/default',
      );
      expect((await visit('/sep-default')).headers.get('location')).toBe('https://dest.example/default');
    },
  );

  // The redirect app hears domain changes through the listeners of the short-URL edge the API composes too
  // (composeShortUrlEdge): a host it answered stays cached 30 s, so only the Redis message makes it stop sooner.
  it(
    'stops serving a custom domain at once when a re-check on the API takes its ' +
      'verification away (the cached host is evicted through Redis)',
    async () => {
      await linkOnVerifiedDomain('sep.bob.test', 'sep-bob', 'https://dest.example/bob');
      // the host is now cached here
      expect((await visitAs(redirect.baseUrl, 'sep.bob.test', '/sep-bob')).location).toBe('https://dest.example/bob');

      dns.cnames.delete('sep.bob.test');
      expect((await api.app.get('CONTEXTS').domains.recheck.execute()).lost).toBeGreaterThanOrEqual(1);
      await eventually(
        'the redirect app stops serving the unverified domain',
        async () => (await visitAs(redirect.baseUrl, 'sep.bob.test', '/sep-bob')).status === 404,
        5_000,
        50,
      );
    },
  );

  it('asks for a protected link’s password and goes on with the right one', async () => {
    await link({ url: 'https://dest.example/secret', slug: 'sep-locked', hasPassword: true, password: 'open sesame' });
    const form = await visit('/sep-locked');
    expect(form.status).toBe(200);
    expect(form.headers.get('content-security-policy')).toContain("form-action 'self'");
    const post = (password: string) =>
      visit('/sep-locked', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password }).toString(),
      });
    expect((await post('wrong')).status).toBe(401);
    const right = await post('open sesame');
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('https://dest.example/secret');
  });

  it('counts every visit once into the link the API shows, and reports plain counters on /metrics', async () => {
    const made = await link({ url: 'https://dest.example/counted', slug: 'sep-counted' });
    await Promise.all(Array.from({ length: 12 }, () => visit('/sep-counted', { headers: { 'user-agent': BROWSER } })));
    await visit('/sep-counted', { method: 'HEAD', headers: { 'user-agent': BROWSER } });
    await eventually(
      '12 clicks written',
      async () => (await api.request('GET', `/user/link/${made.id}`, { token: ada.accessToken })).body.data.clicks === 12,
      10_000,
      100,
    );
    const metrics = await (await fetch(`${redirect.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/lnk_redirects_total\{outcome="redirect"\} \d+/);
    expect(metrics).not.toContain('lnk_http_request_duration_seconds');
  });

  it('writes the buffered clicks before it stops on SIGTERM', async () => {
    const made = await link({ url: 'https://dest.example/last', slug: 'sep-last' });
    const own = await spawnBuiltRedirect(dist, {
      DATABASE_URL: database.config.kind === 'postgres' ? database.config.url : '',
      SHORT_BASE_URL: api.config.shortBaseUrl,
      CLICK_FLUSH_INTERVAL: '60000',
    });
    await Promise.all(
      Array.from({ length: 5 }, () => fetch(`${own.baseUrl}/sep-last`, { redirect: 'manual', headers: { 'user-agent': BROWSER } })),
    );
    expect(await own.stop()).toEqual({ code: 0, signal: null });
    expect((await api.request('GET', `/user/link/${made.id}`, { token: ada.accessToken })).body.data.clicks).toBe(5);
  });
});
