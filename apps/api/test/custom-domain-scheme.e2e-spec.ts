import { request as httpRequest } from 'node:http';
import { buildOpenApiDocument } from '../src/openapi/openapi';
import { ResponseContract } from './support/contract';
import { startDnsServer } from './support/dns-server';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

/** The address the trusted proxy (TRUST_PROXY) sends from; the tests' own requests come from 127.0.0.1. */
const PROXY_ADDRESS = '127.0.0.2';

describe('short URLs of custom domains take the scheme of the request behind a trusted proxy (CUSTOM_DOMAIN_SCHEME=request)', () => {
  let t: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let contract: ResponseContract;
  let ada: TestAccount;
  let onDomain: string;
  let onDefault: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTestApp({
      env: {
        TRUST_PROXY: PROXY_ADDRESS,
        CUSTOM_DOMAIN_SCHEME: 'request',
        SHORT_BASE_URL: 'http://s.lnk.test',
        DNS_SERVERS: dns.address,
        DNS_TARGET: 'cname.lnk.test',
        // The list cache lives as long as the click interval: long enough that every list here is answered from it.
        CLICK_FLUSH_INTERVAL: '30000',
        CLICK_FLUSH_MAX_INTERVAL: '30000',
      },
    });
    contract = new ResponseContract(buildOpenApiDocument(t.app));
    ada = await createAccount(t);
    const domain = (await t.request('POST', '/user/domain', { token: ada.accessToken, body: { name: 'go.example.com' } })).body.data;
    dns.cnames.set('go.example.com', 'cname.lnk.test');
    dns.txts.set(domain.verification.name, [domain.verification.value]);
    expect((await t.request('POST', `/user/domain/${domain.id}/verify`, { token: ada.accessToken })).status).toBe(200);
    onDomain = (
      await t.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'https://example.org/promo', slug: 'promo', domainId: domain.id },
      })
    ).body.data.id;
    onDefault = (
      await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://example.org/plain', slug: 'plain' } })
    ).body.data.id;
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  /** A request as the TLS-terminating proxy forwards it: from its address, saying which scheme the client used. */
  const viaProxy = (path: string, proto: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const url = new URL(t.baseUrl + path);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path,
          localAddress: PROXY_ADDRESS,
          headers: { authorization: `Bearer ${ada.accessToken}`, 'x-forwarded-proto': proto, 'x-forwarded-for': '198.51.100.20' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            const broken = contract.check('GET', path, res.statusCode ?? 0, res.headers['content-type'] ?? null, body);
            if (broken.length) reject(new Error(broken.join('\n')));
            else resolve({ status: res.statusCode ?? 0, body });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  const shortUrls = (body: { data: { shortUrl: string }[] }) => body.data.map((l) => l.shortUrl).sort();

  it(
    'writes https:// for a request the proxy says came over HTTPS and http:// ' +
      "for plain HTTP; the default short domain keeps SHORT_BASE_URL's",
    async () => {
      expect((await viaProxy(`/user/link/${onDomain}`, 'https')).body.data.shortUrl).toBe('https://go.example.com/promo');
      expect((await viaProxy(`/user/link/${onDomain}`, 'http')).body.data.shortUrl).toBe('http://go.example.com/promo');
      expect((await viaProxy(`/user/link/${onDefault}`, 'https')).body.data.shortUrl).toBe('http://s.lnk.test/plain');
      expect((await t.request('GET', `/user/link/${onDomain}`, { token: ada.accessToken })).body.data.shortUrl).toBe(
        'http://go.example.com/promo',
      );
    },
  );

  // A client is not the proxy: what it says of the scheme writes nothing into its answers.
  it('ignores X-Forwarded-Proto from a client that is not the trusted proxy', async () => {
    const spoofed = await t.request('GET', `/user/link/${onDomain}`, { token: ada.accessToken, headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.body.data.shortUrl).toBe('http://go.example.com/promo');
    expect((await viaProxy(`/user/link/${onDomain}`, 'javascript')).body.data.shortUrl).toBe('http://go.example.com/promo');
  });

  // The list answer is cached per owner and its JSON kept with it: one scheme's JSON must not answer a request of the other.
  it("never answers a list from the cache with the other scheme's short URLs", async () => {
    expect(shortUrls((await viaProxy('/user/link', 'https')).body)).toEqual(['http://s.lnk.test/plain', 'https://go.example.com/promo']);
    expect(shortUrls((await t.request('GET', '/user/link', { token: ada.accessToken })).body)).toEqual([
      'http://go.example.com/promo',
      'http://s.lnk.test/plain',
    ]);
    expect(shortUrls((await viaProxy('/user/link', 'https')).body)).toEqual(['http://s.lnk.test/plain', 'https://go.example.com/promo']);
  });
});
