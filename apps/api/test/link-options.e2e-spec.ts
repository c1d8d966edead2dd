import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { asBrowser } from './support/visitor';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
/** In the offline country table: GB and US. */
const UK_ADDRESS = '81.2.69.160';
const US_ADDRESS = '8.8.8.8';
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

// Issue 18's link options through real HTTP: the API's validation, the stored link, and the short URL's answer.
describe('link options over HTTP (redirectType, expiresAt, expiredUrl, maxVisits, utm, targets)', () => {
  let t: TestApp;
  let ada: TestAccount;

  beforeAll(async () => {
    // Targets choose by the client address: the test's requests say theirs in X-Forwarded-For.
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    ada = await createAccount(t);
  });
  afterAll(() => t?.close());

  const create = (body: Record<string, unknown>) => t.request('POST', '/user/link', { token: ada.accessToken, body });
  const link = async (body: Record<string, unknown>) => {
    const res = await create(body);
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data;
  };
  const visit = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(t.baseUrl + path, { method, redirect: 'manual', headers: asBrowser(headers) });
  const flush = () => t.app.get('CONTEXTS').analytics.clicks.flush();
  const clicksOf = async (id: string) => {
    await flush();
    return (await t.request('GET', `/user/link/${id}`, { token: ada.accessToken })).body.data.clicks;
  };
  /** Moves the link's expiry into the past in the database, then saves an unrelated change so the redirect cache forgets it. */
  const expireNow = async (id: string) => {
    await t.dataSource.query(`UPDATE links SET expires_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    expect((await t.request('PUT', `/user/link/${id}`, { token: ada.accessToken, body: { description: 'expired' } })).status).toBe(200);
  };

  describe('validation: 400 VALIDATION_ERROR naming the field', () => {
    it.each([
      [{ redirectType: 303 }, 'redirectType'],
      [{ redirectType: '301' }, 'redirectType'],
      [{ expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
      [{ expiresAt: 'next week' }, 'expiresAt'],
      [{ expiresAt: 1893456000000 }, 'expiresAt'],
      [{ expiredUrl: 'javascript:alert(1)' }, 'expiredUrl'],
      [{ maxVisits: 0 }, 'maxVisits'],
      [{ maxVisits: -3 }, 'maxVisits'],
      [{ maxVisits: 2.5 }, 'maxVisits'],
      [{ utm: { source: '' } }, 'utm.source'],
      [{ utm: { id: 'x' } }, 'utm.id'],
      [{ utm: 'source=x' }, 'utm'],
      [{ targets: { device: { ios: 'not a url' } } }, 'targets.device.ios'],
      [{ targets: { device: { ios: 'ftp://example.com/' } } }, 'targets.device.ios'],
      [{ targets: { device: { watch: 'https://example.com/' } } }, 'targets.device.watch'],
      [{ targets: { country: { gb: 'https://example.co.uk/' } } }, 'targets.country.gb'],
      [{ targets: { country: { GBR: 'https://example.co.uk/' } } }, 'targets.country.GBR'],
      [{ targets: { region: {} } }, 'targets.region'],
      [{ targets: [] }, 'targets'],
    ])('refuses %j on %s', async (fields, name) => {
      const res = await create({ url: 'https://example.com/', ...fields });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.meta.errors.map((e: { name: string }) => e.name)).toContain(name);
    });

    it('refuses the same values on update, and tells of each bad field at once', async () => {
      const { id } = await link({ url: 'https://example.com/' });
      const res = await t.request('PUT', `/user/link/${id}`, {
        token: ada.accessToken,
        body: {
          expiresAt: '2020-01-01T00:00:00Z',
          expiredUrl: 'nope',
          targets: { device: { tv: 'https://example.com/' }, country: { us: 'https://example.com/' } },
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.meta.errors.map((e: { name: string }) => e.name).sort()).toEqual([
        'expiredUrl',
        'expiresAt',
        'targets.country.us',
        'targets.device.tv',
      ]);
      // Type and range errors are the request's own, told before the domain's rules.
      const typed = await t.request('PUT', `/user/link/${id}`, { token: ada.accessToken, body: { redirectType: 303, maxVisits: 0 } });
      expect([typed.status, typed.body.meta.errors.map((e: { name: string }) => e.name).sort()]).toEqual([
        400,
        ['maxVisits', 'redirectType'],
      ]);
      // Nothing was changed by the refused updates.
      expect(Object.keys((await t.request('GET', `/user/link/${id}`, { token: ada.accessToken })).body.data)).not.toContain('expiresAt');
    });

    it('refuses expired other than true or false on the list', async () => {
      const res = await t.request('GET', '/user/link?expired=yes', { token: ada.accessToken });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    });
  });

  // A client that knows only the spec must see exactly the spec's link.
  it('shows no option field on a link made with the spec’s fields, and each option that is set', async () => {
    const plain = await link({ url: 'https://example.com/', title: 'plain' });
    expect(Object.keys(plain).sort()).toEqual([
      'clicks',
      'createdAt',
      'description',
      'domainId',
      'hasPassword',
      'id',
      'shortUrl',
      'slug',
      'status',
      'tags',
      'title',
      'updatedAt',
      'url',
    ]);
    const expiresAt = inAnHour();
    const full = await link({
      url: 'https://example.com/',
      redirectType: 307,
      expiresAt,
      expiredUrl: 'https://example.com/over',
      maxVisits: 5,
      utm: { source: 'news', campaign: 'spring' },
      targets: { device: { ios: 'https://apps.example/ios' }, country: { GB: 'https://example.co.uk' } },
    });
    expect(full).toMatchObject({
      redirectType: 307,
      expiresAt,
      expiredUrl: 'https://example.com/over',
      maxVisits: 5,
      visitsUsed: 0,
      utm: { source: 'news', campaign: 'spring' },
      targets: { device: { ios: 'https://apps.example/ios' }, country: { GB: 'https://example.co.uk/' } },
    });
    const detail = await t.request('GET', `/user/link/${full.id}`, { token: ada.accessToken });
    expect(detail.body.data).toEqual(full);
    // null clears each; redirectType goes back to the default.
    const cleared = await t.request('PUT', `/user/link/${full.id}`, {
      token: ada.accessToken,
      body: { redirectType: 302, expiresAt: null, expiredUrl: null, maxVisits: null, utm: null, targets: null },
    });
    expect(cleared.status).toBe(200);
    const after = await t.request('GET', `/user/link/${full.id}`, { token: ada.accessToken });
    for (const key of ['redirectType', 'expiresAt', 'expiredUrl', 'maxVisits', 'visitsUsed', 'utm', 'targets'])
      expect(after.body.data).not.toHaveProperty(key);
  });

  it('answers at the link’s redirect type: 302 by default, 301, 307 or 308 when chosen', async () => {
    for (const redirectType of [undefined, 301, 302, 307, 308]) {
      const { slug } = await link({ url: 'https://example.com/typed', ...(redirectType ? { redirectType } : {}) });
      const res = await visit(`/${slug}`);
      expect([redirectType, res.status, res.headers.get('location')]).toEqual([
        redirectType,
        redirectType ?? 302,
        'https://example.com/typed',
      ]);
    }
  });

  it('answers an expired link with a 302 to its expiredUrl, never the destination, and counts no visit', async () => {
    const { id, slug } = await link({ url: 'https://example.com/live', expiresAt: inAnHour(), expiredUrl: 'https://example.com/over' });
    expect((await visit(`/${slug}`)).headers.get('location')).toBe('https://example.com/live');
    expect(await clicksOf(id)).toBe(1);
    await expireNow(id);
    for (const path of [`/${slug}`, `/${slug}?utm_source=x`]) {
      const res = await visit(path);
      expect([res.status, res.headers.get('location')]).toEqual([302, 'https://example.com/over']);
    }
    expect(await clicksOf(id)).toBe(1);
    const listed = await t.request('GET', '/user/link?expired=true&limit=100', { token: ada.accessToken });
    expect(listed.body.data.map((l: { id: string }) => l.id)).toContain(id);
    const live = await t.request('GET', '/user/link?expired=false&limit=100', { token: ada.accessToken });
    expect(live.body.data.map((l: { id: string }) => l.id)).not.toContain(id);
  });

  it('answers an expired link without expiredUrl with the 410 page, GET and HEAD', async () => {
    const { id, slug } = await link({ url: 'https://example.com/live', expiresAt: inAnHour() });
    await expireNow(id);
    const res = await visit(`/${slug}`);
    expect(res.status).toBe(410);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('Link expired');
    expect((await visit(`/${slug}`, {}, 'HEAD')).status).toBe(410);
    expect(await clicksOf(id)).toBe(0);
  });

  it('lets exactly maxVisits counted visits reach the destination, then answers as expired; HEAD and bots take none', async () => {
    const { id, slug } = await link({ url: 'https://example.com/few', maxVisits: 2 });
    expect((await visit(`/${slug}`, {}, 'HEAD')).status).toBe(302);
    expect(
      (await fetch(`${t.baseUrl}/${slug}`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' } }))
        .status,
    ).toBe(302);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await visit(`/${slug}`)).status);
    expect(answers).toEqual([302, 302, 410, 410]);
    expect(await clicksOf(id)).toBe(2);
    expect((await t.request('GET', `/user/link/${id}`, { token: ada.accessToken })).body.data).toMatchObject({
      maxVisits: 2,
      visitsUsed: 2,
    });
    // Raising the limit lets more through, at once.
    await t.request('PUT', `/user/link/${id}`, { token: ada.accessToken, body: { maxVisits: 3 } });
    expect((await visit(`/${slug}`)).status).toBe(302);
    expect((await visit(`/${slug}`)).status).toBe(410);
  });

  it('appends the link’s UTM values on every redirect, the request’s own query winning', async () => {
    const { slug } = await link({ url: 'https://example.com/page?utm_source=old&keep=1', utm: { source: 'newsletter', medium: 'email' } });
    expect((await visit(`/${slug}`)).headers.get('location')).toBe(
      'https://example.com/page?keep=1&utm_source=newsletter&utm_medium=email',
    );
    expect((await visit(`/${slug}?utm_source=poster&x=1`)).headers.get('location')).toBe(
      'https://example.com/page?keep=1&utm_medium=email&utm_source=poster&x=1',
    );
  });

  it('picks the destination by country, then device, then url', async () => {
    const { slug } = await link({
      url: 'https://example.com/default',
      targets: {
        country: { GB: 'https://example.co.uk/' },
        device: { ios: 'https://apps.example/ios', android: 'https://apps.example/android', desktop: 'https://example.com/desktop' },
      },
    });
    const go = async (userAgent: string, address: string) =>
      (await visit(`/${slug}`, { 'user-agent': userAgent, 'x-forwarded-for': address })).headers.get('location');
    expect(await go(IPHONE, UK_ADDRESS)).toBe('https://example.co.uk/');
    expect(await go(WINDOWS, UK_ADDRESS)).toBe('https://example.co.uk/');
    expect(await go(IPHONE, US_ADDRESS)).toBe('https://apps.example/ios');
    expect(await go(ANDROID, US_ADDRESS)).toBe('https://apps.example/android');
    expect(await go(WINDOWS, US_ADDRESS)).toBe('https://example.com/desktop');
    expect(await go('curl/8.0', US_ADDRESS)).toBe('https://example.com/default');
  });
});

// The issue's own check: a limit of 10 and 50 visitors at once through two instances on one PostgreSQL.
describe('maxVisits through two instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startTestApp({ database });
    b = await startTestApp({ database });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('sends exactly 10 of 50 concurrent visitors to the destination, the others to the expired answer', async () => {
    const account = await createAccount(a);
    const created = await a.request('POST', '/user/link', {
      token: account.accessToken,
      body: { url: 'https://example.com/ten', slug: 'ten-only', maxVisits: 10, expiredUrl: 'https://example.com/sold-out' },
    });
    expect(created.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await fetch(`${(i % 2 ? a : b).baseUrl}/ten-only`, { redirect: 'manual', headers: asBrowser() });
        return res.headers.get('location');
      }),
    );
    expect(answers.filter((l) => l === 'https://example.com/ten')).toHaveLength(10);
    expect(answers.filter((l) => l === 'https://example.com/sold-out')).toHaveLength(40);
    const detail = await b.request('GET', `/user/link/${created.body.data.id}`, { token: account.accessToken });
    expect(detail.body.data).toMatchObject({ maxVisits: 10, visitsUsed: 10 });
  });
});
