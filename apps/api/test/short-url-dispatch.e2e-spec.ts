import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { asBrowser } from './support/visitor';

/** Lines of a Prometheus text answer whose name and labels contain every given part. */
const series = (text: string, ...parts: string[]) =>
  text.split('\n').filter((line) => !line.startsWith('#') && parts.every((part) => line.includes(part)));

describe('npm start: short URLs answered in front of the API stack, on the same port', () => {
  let t: TestApp;
  let ada: TestAccount;
  const visit = (path: string, init: RequestInit = {}) => fetch(t.baseUrl + path, { redirect: 'manual', ...init });

  beforeAll(async () => {
    t = await startTestApp({ env: { SHORT_BASE_URL: 'https://s.example' } });
    ada = await createAccount(t);
    const res = await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://dest.example/', slug: 'fast' } });
    expect(res.status).toBe(200);
  });
  afterAll(() => t?.close());

  it(
    'answers a redirect with Location, Cache-Control, Content-Length: 0 and HSTS ' +
      '(https short URLs) only: no document headers on a bodiless answer',
    async () => {
      const res = await visit('/fast', { headers: asBrowser() });
      expect(res.status).toBe(302);
      const names = [...res.headers.keys()].filter((n) => !['date', 'connection', 'keep-alive'].includes(n)).sort();
      expect(names).toEqual(['cache-control', 'content-length', 'location', 'strict-transport-security']);
      expect([res.headers.get('location'), res.headers.get('cache-control'), res.headers.get('content-length')]).toEqual([
        'https://dest.example/',
        'private, max-age=0',
        '0',
      ]);
    },
  );

  it('mints no request id for a short URL, and echoes a sane one the caller sent (header injection defended)', async () => {
    expect((await visit('/fast')).headers.get('x-request-id')).toBeNull();
    expect((await visit('/fast', { headers: { 'x-request-id': 'edge-1:a.b' } })).headers.get('x-request-id')).toBe('edge-1:a.b');
    expect((await visit('/fast', { headers: { 'x-request-id': 'bad id with spaces' } })).headers.get('x-request-id')).toBeNull();
    // The API still makes one for its own answers.
    expect((await t.request('GET', '/health')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps every document header on the 404 page and the password form (clickjacking and sniffing defended)', async () => {
    await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://dest.example/locked', slug: 'fast-locked', hasPassword: true, password: 'pw-123456' },
    });
    for (const path of ['/no-such-fast', '/fast-locked']) {
      const page = await visit(path);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    }
  });

  it('never hands a short URL to Fastify or Nest: plain redirect counters move, the request histogram does not', async () => {
    const before = (await t.request('GET', '/metrics')).text;
    for (let i = 0; i < 5; i++) await visit('/fast', { headers: asBrowser() });
    await visit('/no-such-fast');
    const after = (await t.request('GET', '/metrics')).text;
    const redirects = (text: string) => Number(series(text, 'lnk_redirects_total{outcome="redirect"}')[0]?.split(' ').pop() ?? 0);
    expect(redirects(after) - redirects(before)).toBe(5);
    expect(series(after, 'lnk_http_request', 'status="302"')).toEqual([]);
    expect(series(after, 'lnk_http_request', '/:slug')).toEqual([]);
    expect(
      series(after, 'lnk_http_request', 'route="unmatched"', 'status="404"', 'method="GET"').filter(
        (l) => l.includes('_count') || l.startsWith('lnk_http_requests_total'),
      ),
    ).toEqual(
      series(before, 'lnk_http_request', 'route="unmatched"', 'status="404"', 'method="GET"').filter(
        (l) => l.includes('_count') || l.startsWith('lnk_http_requests_total'),
      ),
    );
  });

  it('leaves the API its own one-segment paths (/health, /metrics, /docs, /v1) and deeper paths', async () => {
    expect((await t.request('GET', '/health')).status).toBe(200);
    expect((await visit('/docs')).status).toBe(302);
    expect((await visit('/docs')).headers.get('location')).toMatch(/^docs\//);
    expect((await t.request('GET', '/v1/health')).status).toBe(200);
    expect((await t.request('GET', '/no/such/route')).body).toMatchObject({ status: 404 });
  });
});

describe('SERVE_SHORT_URLS=false: short URLs left to a separate redirect deployment', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { SERVE_SHORT_URLS: 'false' } });
    const ada = await createAccount(t);
    await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://dest.example/', slug: 'elsewhere' } });
  });
  afterAll(() => t?.close());

  it('answers /{slug} with the API’s 404 envelope, never a redirect', async () => {
    const res = await t.request('GET', '/elsewhere');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(res.headers.get('location')).toBeNull();
  });
});
