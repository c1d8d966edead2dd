import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount, TestAccount } from './support/identity';
import { startDnsServer } from './support/dns-server';
import { startTestApp, TestApp } from './support/test-app';
import { visitAs } from './support/visitor';

const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
/** What a browser sends when a person opens an address. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const ELSEWHERE = 'https://www.example.org/welcome';

describe('the home page at / and the not-found redirect (issue 12: GET / was the "link not found" page)', () => {
  let t: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let ada: TestAccount;
  let customDomainId: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    // The default set-up: short URLs on the API's own host; unknown ones sent elsewhere.
    t = await startTestApp({ env: { DNS_SERVERS: dns.address, DNS_TARGET: 'cname.lnk.test', NOT_FOUND_REDIRECT_URL: ELSEWHERE } });
    ada = await createAccount(t);
    const domain = await t.request('POST', '/user/domain', { token: ada.accessToken, body: { name: 'go.ada.test' } });
    customDomainId = domain.body.data.id;
    dns.cnames.set('go.ada.test', 'cname.lnk.test');
    dns.txts.set(domain.body.data.verification.name, [domain.body.data.verification.value]);
    expect((await t.request('POST', `/user/domain/${customDomainId}/verify`, { token: ada.accessToken })).body.data.isVerified).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it("shows a browser a page naming the service, linking /docs and /openapi.json, and the version, under the pages' CSP", async () => {
    const res = await t.request('GET', '/', { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.text).toContain('<h1>lnk</h1>');
    expect(res.text).toContain('href="/docs"');
    expect(res.text).toContain('href="/openapi.json"');
    expect(res.text).toContain(`Version ${VERSION}`);
    // The links lead somewhere.
    expect((await fetch(`${t.baseUrl}/openapi.json`)).status).toBe(200);
  });

  it(
    'answers an API client (Accept: application/json, or */* as curl ' + 'sends) with the envelope: name, version, documentation URLs',
    async () => {
      for (const accept of ['application/json', '*/*']) {
        const res = await t.request('GET', '/', { headers: { accept } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          status: 200,
          code: 'OK',
          message: 'lnk API',
          data: { name: 'lnk', version: VERSION, docs: `${t.baseUrl}/docs`, openapi: `${t.baseUrl}/openapi.json` },
        });
      }
      expect((await t.request('GET', '/v1/', { headers: { accept: 'application/json' } })).body.data.name).toBe('lnk');
    },
  );

  // A custom domain is its owner's: it must not advertise the operator's API, nor send its visitors to the operator's chosen page.
  it('leaves / and unknown slugs of a verified custom domain to the not-found page', async () => {
    const root = await visitAs(t.baseUrl, 'go.ada.test', '/', { accept: BROWSER_ACCEPT });
    expect(root.status).toBe(404);
    expect(root.body).toContain('Link not found');
    expect(root.body).not.toContain('/openapi.json');
    const unknown = await visitAs(t.baseUrl, 'GO.ADA.TEST:8080', '/no-such-slug');
    expect([unknown.status, unknown.location]).toEqual([404, undefined]);
  });

  it(
    'sends unknown and turned-off short URLs of the default short domain to ' +
      'NOT_FOUND_REDIRECT_URL, while / stays the home page on the API host',
    async () => {
      const unknown = await fetch(`${t.baseUrl}/no-such-slug`, { redirect: 'manual' });
      expect([unknown.status, unknown.headers.get('location')]).toEqual([302, ELSEWHERE]);
      const link = await t.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'https://example.com/off', slug: 'turned-off' },
      });
      await t.request('PUT', `/user/link/${link.body.data.id}`, { token: ada.accessToken, body: { status: false } });
      const off = await fetch(`${t.baseUrl}/turned-off`, { redirect: 'manual' });
      expect([off.status, off.headers.get('location')]).toEqual([302, ELSEWHERE]);
      // A known link still goes to its own destination.
      const known = await t.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'https://example.com/on', slug: 'turned-on' },
      });
      expect(known.status).toBe(200);
      expect((await fetch(`${t.baseUrl}/turned-on`, { redirect: 'manual' })).headers.get('location')).toBe('https://example.com/on');
      // SHORT_BASE_URL shares PUBLIC_BASE_URL's host: its / is the API's home, not a short URL.
      expect((await t.request('GET', '/', { headers: { accept: 'application/json' } })).status).toBe(200);
    },
  );
});

describe('a short domain of its own (SHORT_BASE_URL on another host than PUBLIC_BASE_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SHORT_BASE_URL: 'http://s.lnk.test', NOT_FOUND_REDIRECT_URL: ELSEWHERE } });
  });
  afterAll(async () => t?.close());

  it('redirects its / to NOT_FOUND_REDIRECT_URL (nothing of the API to show there), while the API host keeps its home page', async () => {
    const short = await visitAs(t.baseUrl, 's.lnk.test', '/', { accept: BROWSER_ACCEPT });
    expect([short.status, short.location]).toEqual([302, ELSEWHERE]);
    expect((await visitAs(t.baseUrl, 's.lnk.test', '/missing')).location).toBe(ELSEWHERE);
    const api = await t.request('GET', '/', { headers: { accept: BROWSER_ACCEPT } });
    expect(api.status).toBe(200);
    expect(api.text).toContain('href="/docs"');
  });
});
