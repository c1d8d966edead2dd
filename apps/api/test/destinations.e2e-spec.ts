import { createAccount, TestAccount } from './support/identity';
import { TestApp, useTestApp } from './support/test-app';

/**
 * What a short link may point at, how it is stored, and what the short URL answers when a stored
 * destination is one no redirect can carry (rows written before destinations were checked as now).
 */
describe('link destinations over HTTP', () => {
  let t: TestApp;
  let ada: TestAccount;
  // The test app runs on 127.0.0.1: its own host is a loopback address.
  useTestApp(async (app) => {
    t = app;
    ada = await createAccount(app);
  });

  const create = (body: Record<string, unknown>) => t.request('POST', '/user/link', { token: ada.accessToken, body });
  const visit = (path: string, init: RequestInit = {}) => fetch(t.baseUrl + path, { redirect: 'manual', ...init });
  let counter = 0;
  const slug = () => `dest-${++counter}`;

  // Stored as typed, a non-ASCII host or path made the redirect's Location header fail (a 500).
  it('stores the destination as the URL parser writes it (punycode host, percent-encoded path) and redirects to it', async () => {
    const created = await create({ url: 'https://bücher.example/straße?q=grün tee#teil 2', slug: 'books' });
    expect(created.status).toBe(200);
    expect(created.body.data.url).toBe('https://xn--bcher-kva.example/stra%C3%9Fe?q=gr%C3%BCn%20tee#teil%202');
    const updated = await t.request('PUT', `/user/link/${created.body.data.id}`, {
      token: ada.accessToken,
      body: { url: 'HTTPS://Example.COM' },
    });
    expect(updated.body.data.url).toBe('https://example.com/');
    await t.request('PUT', `/user/link/${created.body.data.id}`, { token: ada.accessToken, body: { url: 'https://日本.example/パス' } });
    const redirect = await visit('/books');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://xn--wgv71a.example/%E3%83%91%E3%82%B9');
  });

  it.each([
    // Header splitting: CR/LF in the stored URL broke the Location header.
    ['a CR/LF', 'https://example.com/a\r\nSet-Cookie: session=x'],
    ['a TAB', 'https://exa\tmple.com/'],
    ['a NUL', 'https://example.com/\u0000'],
    ['a C1 control', 'https://example.com/\u0085'],
    ['DEL', 'https://example.com/\u007f'],
  ])('refuses a destination with %s with VALIDATION_ERROR on url', async (_what, url) => {
    const res = await create({ url });
    expect(res.status).toBe(400);
    // A NUL is refused first by the validation every field goes through.
    expect(res.body.meta.errors).toEqual([
      { name: 'url', error: url.includes('\u0000') ? 'url must not contain a NUL character' : 'url may not contain control characters' },
    ]);
  });

  // https://bank.example@evil.example/ shows a trusted name to the reader and goes to another host.
  it.each(['https://bank.example@evil.example/', 'https://user:secret@example.com/'])('refuses user info in %p', async (url) => {
    const res = await create({ url });
    expect(res.status).toBe(400);
    expect(res.body.meta.errors).toEqual([{ name: 'url', error: 'url may not carry a user name or password' }]);
  });

  // A short link to the service under another spelling of its own address loops through it.
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://127.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost:9/',
  ])('refuses %p, an alias of the service’s own loopback host', async (url) => {
    const res = await create({ url });
    expect(res.status).toBe(400);
    expect(res.body.meta.errors).toEqual([{ name: 'url', error: 'url may not point at a short domain of this service' }]);
  });

  describe('a destination stored before these checks', () => {
    /** A link whose stored destination is written straight into the database, before its first visit. */
    const stored = async (url: string) => {
      const name = slug();
      const created = await create({ url: 'https://example.com/placeholder', slug: name });
      await t.dataSource.query('UPDATE links SET url = $1 WHERE id = $2', [url, created.body.data.id]);
      return name;
    };

    // Fastify's own 500 named the header and the character: the service's page says only that the link is broken.
    it.each(['https://example.com/a\r\nSet-Cookie: session=x', 'not a url', 'javascript:alert(1)', 'https://example.com/\u0007'])(
      'answers %j with the service’s own page, not the framework’s error',
      async (url) => {
        const res = await visit(`/${await stored(url)}`);
        expect(res.status).toBe(500);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.headers.get('location')).toBeNull();
        expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
        const text = await res.text();
        expect(text).toContain('<h1>Link cannot be opened</h1>');
        expect(text).not.toMatch(/Set-Cookie|ERR_|Invalid character|statusCode/);
      },
    );

    it('redirects to the ASCII form of a stored non-ASCII destination', async () => {
      const res = await visit(`/${await stored('https://exämple.com/ä')}`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('https://xn--exmple-cua.com/%C3%A4');
    });

    it('answers the password form of a protected link with a broken destination with the same page', async () => {
      const name = slug();
      const created = await create({ url: 'https://example.com/placeholder', slug: name, hasPassword: true, password: 'open sesame' });
      await t.dataSource.query('UPDATE links SET url = $1 WHERE id = $2', ['https://example.com/\r\n', created.body.data.id]);
      const res = await visit(`/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'password=open+sesame',
      });
      expect(res.status).toBe(500);
      expect(await res.text()).toContain('<h1>Link cannot be opened</h1>');
    });
  });

  // Fastify's own JSON error (FST_ERR_CTP_INVALID_JSON_BODY, ...) answered what it refused before the route ran.
  it.each([
    ['application/json', '{', 400],
    ['text/plain', 'password=x', 415],
    ['application/xml', '<password/>', 415],
  ])('answers a %s body the password form cannot take with the service’s own page', async (contentType, body, status) => {
    const name = slug();
    await create({ url: 'https://example.com/', slug: name, hasPassword: true, password: 'open sesame' });
    const res = await visit(`/${name}`, { method: 'POST', headers: { 'content-type': contentType }, body });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self';");
    const text = await res.text();
    expect(text).toContain('<h1>Link cannot be opened</h1>');
    expect(text).not.toMatch(/FST_|statusCode/);
  });

  describe('the password page of a protected link', () => {
    const post = (name: string, password: string) =>
      visit(`/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password }).toString(),
      });

    // The CSP named the destination's origin in form-action: a page of the service vouched for where the link goes.
    it('lets its form post to the service only (CSP form-action self), on every answer', async () => {
      const name = slug();
      await create({ url: 'https://protected.example/secret?x=1', slug: name, hasPassword: true, password: 'open sesame' });
      for (const res of [await visit(`/${name}`), await post(name, 'wrong password'), await post(name, 'open sesame')]) {
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("form-action 'self';");
        expect(csp).not.toContain('protected.example');
      }
    });

    it('answers the right password with a page that goes on to the destination, without a referrer or a script', async () => {
      const name = slug();
      await create({ url: 'https://protected.example/secret?x=1&y="2"', slug: name, hasPassword: true, password: 'open sesame' });
      const res = await post(name, 'open sesame');
      expect(res.status).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).not.toContain('script-src');
      const html = await res.text();
      const target = 'https://protected.example/secret?x=1&amp;y=%222%22';
      expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${target}">`);
      expect(html).toContain(`<a href="${target}" rel="noreferrer">`);
      expect(html).toContain('<meta name="referrer" content="no-referrer">');
      expect(html).not.toContain('<script');
    });
  });
});
