import { createAccount, TestAccount } from './support/identity';
import { startDnsServer } from './support/dns-server';
import { startTestApp, TestApp } from './support/test-app';
import { asBrowser, visitAs as visitWithHost } from './support/visitor';

describe('short links answering, and the statistics they feed', () => {
  let t: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let ada: TestAccount;
  let bob: TestAccount;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTestApp({ env: { DNS_SERVERS: dns.address, DNS_TARGET: 'cname.lnk.test', BCRYPT_COST: '4' } });
    ada = await createAccount(t);
    bob = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const link = async (account: TestAccount, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/user/link', { token: account.accessToken, body });
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data;
  };
  // As a browser: Node's fetch() names itself "node", a script, whose visits are not counted.
  const visit = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(t.baseUrl + path, { redirect: 'manual', ...init, headers: asBrowser(init.headers) });
  const visitAs = async (host: string, path: string) => {
    const { status, location } = await visitWithHost(t.baseUrl, host, path);
    return { status, location };
  };
  const flush = () => t.app.get('CONTEXTS').analytics.clicks.flush();
  const stats = (account: TestAccount, query: string) => t.request('GET', `/user/stats?${query}`, { token: account.accessToken });

  it('redirects with the request query merged into the destination, request parameters winning', async () => {
    await link(ada, { url: 'https://example.com/landing?ref=site&keep=1', slug: 'merge' });
    const res = await visit('/merge?ref=mail&utm_source=news');
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('private, max-age=0');
    const location = new URL(res.headers.get('location') as string);
    expect(Object.fromEntries(location.searchParams)).toEqual({ ref: 'mail', keep: '1', utm_source: 'news' });
    expect(location.origin + location.pathname).toBe('https://example.com/landing');
  });

  it('answers unknown, disabled and deleted links with a 404 page, and follows changes at once', async () => {
    expect((await visit('/nope-nothing')).status).toBe(404);
    const created = await link(ada, { url: 'https://example.com/one', slug: 'changing' });
    expect((await visit('/changing')).headers.get('location')).toBe('https://example.com/one');
    await t.request('PUT', `/user/link/${created.id}`, { token: ada.accessToken, body: { url: 'https://example.com/two' } });
    expect((await visit('/changing')).headers.get('location')).toBe('https://example.com/two');
    await t.request('PUT', `/user/link/${created.id}`, { token: ada.accessToken, body: { status: false } });
    const disabled = await visit('/changing');
    expect(disabled.status).toBe(404);
    expect(disabled.headers.get('content-type')).toContain('text/html');
    await t.request('PUT', `/user/link/${created.id}`, { token: ada.accessToken, body: { status: true } });
    expect((await visit('/changing')).status).toBe(302);
    await t.request('DELETE', `/user/link/${created.id}`, { token: ada.accessToken });
    expect((await visit('/changing')).status).toBe(404);
  });

  // Issue 13: the lookup cache kept the "not found" of a slug asked for before its link existed, for up to a minute.
  it('answers a link at once when its slug was asked for, and not found, just before it was created', async () => {
    expect((await visit('/abc')).status).toBe(404);
    await link(ada, { url: 'https://example.com/abc', slug: 'abc' });
    const res = await visit('/abc');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/abc');
  });

  // The domain twin: a custom domain's host asked for before it was verified was cached as unknown.
  it('answers a custom domain’s link at once when the host was asked for, unknown, just before its verification', async () => {
    const added = await t.request('POST', '/user/domain', { token: bob.accessToken, body: { name: 'go.bob.test' } });
    expect(added.status).toBe(200);
    expect((await visitAs('go.bob.test', '/bob-promo')).status).toBe(404);
    dns.cnames.set('go.bob.test', 'cname.lnk.test');
    dns.txts.set(added.body.data.verification.name, [added.body.data.verification.value]);
    expect((await t.request('POST', `/user/domain/${added.body.data.id}/verify`, { token: bob.accessToken })).body.data.isVerified).toBe(
      true,
    );
    await link(bob, { url: 'https://example.com/bob', slug: 'bob-promo', domainId: added.body.data.id });
    expect(await visitAs('go.bob.test', '/bob-promo')).toEqual({ status: 302, location: 'https://example.com/bob' });
  });

  // Issue 27: a host that was not a verified domain fell back to the default short domain's namespace.
  it('answers a deleted custom domain’s host 404 at once, not the default short domain’s links', async () => {
    await link(ada, { url: 'https://example.com/default-namespace', slug: 'after-domain' });
    const carol = await createAccount(t);
    const added = await t.request('POST', '/user/domain', { token: carol.accessToken, body: { name: 'gone.bob.test' } });
    dns.cnames.set('gone.bob.test', 'cname.lnk.test');
    dns.txts.set(added.body.data.verification.name, [added.body.data.verification.value]);
    expect((await t.request('POST', `/user/domain/${added.body.data.id}/verify`, { token: carol.accessToken })).body.data.isVerified).toBe(
      true,
    );
    expect((await visitAs('gone.bob.test', '/after-domain')).status).toBe(404); // the host is now cached as carol's domain
    expect((await t.request('DELETE', `/user/domain/${added.body.data.id}`, { token: carol.accessToken })).status).toBe(200);
    expect((await visitAs('gone.bob.test', '/after-domain')).status).toBe(404);
    expect((await visit('/after-domain')).status).toBe(302);
  });

  // Issue 27: "Host: alice.example.org." (the name with the trailing dot DNS allows) was not found as
  // Alice's domain, and any host that is not a verified domain fell back to the default short domain:
  // her domain answered Mallory's slugs of the default short domain.
  it(
    'answers a verified domain however its Host is spelled (trailing dot, case, port), and any host ' +
      'that is neither it nor the service’s 404, never the default short domain’s links',
    async () => {
      const [alice, mallory] = [await createAccount(t), await createAccount(t)];
      const domain = await t.request('POST', '/user/domain', { token: alice.accessToken, body: { name: 'alice.ada.test' } });
      dns.cnames.set('alice.ada.test', 'cname.lnk.test');
      dns.txts.set(domain.body.data.verification.name, [domain.body.data.verification.value]);
      expect(
        (await t.request('POST', `/user/domain/${domain.body.data.id}/verify`, { token: alice.accessToken })).body.data.isVerified,
      ).toBe(true);
      await link(alice, { url: 'https://example.com/alice', slug: 'alice-own', domainId: domain.body.data.id });
      await link(mallory, { url: 'https://evil.example/phish', slug: 'mallory-promo' });

      for (const host of ['alice.ada.test.', 'ALICE.ADA.TEST.', 'Alice.Ada.Test.:8080']) {
        expect(await visitAs(host, '/alice-own')).toEqual({ status: 302, location: 'https://example.com/alice' });
        expect((await visitAs(host, '/mallory-promo')).status).toBe(404);
      }
      for (const host of ['elsewhere.example.net', 'elsewhere.example.net.', 'alice.ada.test..', `127.0.0.1.evil.example`]) {
        expect((await visitAs(host, '/mallory-promo')).status).toBe(404);
      }
      // The service's own short host (127.0.0.1 here), however spelled, serves the default short domain.
      expect((await visit('/mallory-promo')).status).toBe(302);
      expect((await visitAs(new URL(t.baseUrl).host, '/mallory-promo')).location).toBe('https://evil.example/phish');
    },
  );

  it('resolves a slug in the namespace of the verified custom domain named by the Host header', async () => {
    const domain = await t.request('POST', '/user/domain', { token: ada.accessToken, body: { name: 'go.ada.test' } });
    dns.cnames.set('go.ada.test', 'cname.lnk.test');
    dns.txts.set(domain.body.data.verification.name, [domain.body.data.verification.value]);
    await t.request('POST', `/user/domain/${domain.body.data.id}/verify`, { token: ada.accessToken });
    await link(ada, { url: 'https://example.com/custom', slug: 'promo', domainId: domain.body.data.id });
    await link(bob, { url: 'https://example.com/default', slug: 'promo' });
    const onCustom = await visitAs('go.ada.test:8080', '/promo');
    expect(onCustom.location).toBe('https://example.com/custom');
    expect((await visitAs('GO.ADA.TEST', '/promo')).location).toBe('https://example.com/custom');
    expect((await visitAs('go.ada.test', '/unknown-here')).status).toBe(404);
    const onDefault = await visit('/promo');
    expect(onDefault.headers.get('location')).toBe('https://example.com/default');
  });

  it('asks for the password of a protected link, counts right and wrong answers, and then goes on to the destination', async () => {
    const created = await link(ada, {
      url: 'https://example.com/secret',
      slug: 'locked',
      title: 'Locked',
      hasPassword: true,
      password: 'open sesame',
    });
    const page = await visit('/locked');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('name="password"');
    const post = (password: string) =>
      visit('/locked', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password }).toString(),
      });
    const wrong = await post('nope');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('not right');
    const right = await post('open sesame');
    // A page that goes on by itself, not a redirect (which the form's CSP form-action would govern).
    expect(right.status).toBe(200);
    expect(right.headers.get('location')).toBeNull();
    expect(right.headers.get('referrer-policy')).toBe('no-referrer');
    const onward = await right.text();
    expect(onward).toContain('<meta http-equiv="refresh" content="0; url=https://example.com/secret">');
    expect(onward).toContain('<a href="https://example.com/secret" rel="noreferrer">');
    await flush();
    const rows = (await stats(ada, `startDate=${today}&endDate=${today}&q=Locked`)).body.data;
    expect(rows).toEqual([
      expect.objectContaining({ linkId: created.id, linkName: 'Locked', visits: 1, passwordPassed: 1, passwordFailed: 1 }),
    ]);
  });

  it('refuses a run of wrong passwords from one address with 429', async () => {
    await link(ada, { url: 'https://example.com/guarded', slug: 'guarded', hasPassword: true, password: 'right one' });
    let last: Response | undefined;
    for (let i = 0; i < 12; i++) {
      last = await visit('/guarded', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `password=wrong${i}`,
      });
      if (last.status === 429) break;
    }
    expect(last?.status).toBe(429);
  }, 30_000);

  it('counts each redirect once, but not bots or HEAD requests, into the link’s clicks and the daily rollup by UTM values', async () => {
    const created = await link(ada, { url: 'https://example.com/counted', slug: 'counted' });
    await Promise.all(Array.from({ length: 20 }, () => visit('/counted?utm_source=mail&utm_campaign=spring')));
    await Promise.all(Array.from({ length: 5 }, () => visit('/counted')));
    await visit('/counted', { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' } });
    await visit('/counted', { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' } });
    // Scripts: curl (the Quickstart follows a link with it) and Node's fetch as it comes.
    await visit('/counted', { headers: { 'user-agent': 'curl/8.5.0' } });
    await fetch(`${t.baseUrl}/counted`, { redirect: 'manual' });
    await visit('/counted', { method: 'HEAD' });
    await flush();
    const detail = await t.request('GET', `/user/link/${created.id}`, { token: ada.accessToken });
    expect(detail.body.data.clicks).toBe(25);
    const res = await stats(ada, `startDate=${today}&endDate=${today}&q=counted`);
    expect(res.body.meta).toEqual({ total: 2 });
    const byUtm = Object.fromEntries(res.body.data.map((r: { utmSource: string; visits: number }) => [r.utmSource, r.visits]));
    expect(byUtm).toEqual({ '': 5, mail: 20 });
    expect(res.body.data[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      date: `${today}T00:00:00.000Z`,
      userId: ada.id,
      linkId: created.id,
      linkName: 'counted',
      domainId: null,
      domainName: '127.0.0.1',
      utmSource: expect.any(String),
      utmMedium: '',
      utmCampaign: expect.any(String),
      visits: expect.any(Number),
      passwordPassed: 0,
      passwordFailed: 0,
    });
    expect(
      (await stats(bob, `startDate=${today}&endDate=${today}`)).body.data.filter((r: { linkId: string }) => r.linkId === created.id),
    ).toEqual([]);
  });

  it('keeps the rows of a deleted link under the name it had, and filters on domain and UTM values', async () => {
    const created = await link(ada, { url: 'https://example.com/gone', slug: 'soon-gone', title: 'Autumn offer' });
    await visit('/soon-gone?utm_medium=banner&utm_campaign=fall');
    await flush();
    await t.request('DELETE', `/user/link/${created.id}`, { token: ada.accessToken });
    const byName = await stats(ada, `startDate=${today}&endDate=${today}&q=autumn`);
    expect(byName.body.data).toEqual([
      expect.objectContaining({ linkId: created.id, linkName: 'Autumn offer', utmMedium: 'banner', utmCampaign: 'fall', visits: 1 }),
    ]);
    expect((await stats(ada, `startDate=${today}&endDate=${today}&q=FALL`)).body.data.map((r: { linkId: string }) => r.linkId)).toEqual([
      created.id,
    ]);
    expect((await stats(ada, `startDate=${today}&endDate=${today}&q=nothing-matches`)).body).toMatchObject({
      data: [],
      meta: { total: 0 },
    });
  });

  it.each([
    ['', 'startDate'],
    ['startDate=2026-01-01', 'endDate'],
    ['startDate=2026-13-01&endDate=2026-12-31', 'startDate'],
    ['startDate=2026-02-30&endDate=2026-03-01', 'startDate'],
    ['startDate=2026-03-02&endDate=2026-03-01', 'endDate'],
    ['startDate=2025-01-01&endDate=2026-03-01', 'endDate'],
  ])('refuses the stats query %p naming %s', async (query, field) => {
    const res = await stats(ada, query);
    expect(res.status).toBe(400);
    expect(res.body.meta.errors[0].name).toBe(field);
  });
});
