import { buildOpenApiDocument } from '../src/openapi/openapi';
import { ResponseContract } from './support/contract';
import { startDnsServer } from './support/dns-server';
import { createAccount, TestAccount } from './support/identity';
import { freePlanLimits, startTestApp, TestApp } from './support/test-app';
import {
  CADDY,
  describeWith,
  HttpsAnswer,
  NGINX,
  overHttps,
  RunningProxy,
  selfSignedCertificate,
  startCaddy,
  startNginx,
} from './support/tls-proxies';

/**
 * The documented recipes (docs/proxy) run in front of the real API on loopback: the proxy terminates TLS
 * with SNI naming the host, as a client that resolved the name to it would; the API trusts it
 * (TRUST_PROXY) and writes custom domains' short URLs with the scheme the client used
 * (CUSTOM_DOMAIN_SCHEME=request).
 */
describe('behind a TLS-terminating reverse proxy', () => {
  let t: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let contract: ResponseContract;
  let ada: TestAccount;
  let domainId: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTestApp({
      env: {
        PUBLIC_BASE_URL: 'https://lnk.example',
        // Plain http here: an https:// custom-domain short URL can only come from the request's scheme.
        SHORT_BASE_URL: 'http://s.lnk.example',
        TRUST_PROXY: '127.0.0.1',
        CUSTOM_DOMAIN_SCHEME: 'request',
        DNS_SERVERS: dns.address,
        DNS_TARGET: 'cname.lnk.example',
        PLANS: freePlanLimits({ maxDomains: 3 }),
      },
    });
    contract = new ResponseContract(buildOpenApiDocument(t.app));
    ada = await createAccount(t);
    const added = (await t.request('POST', '/user/domain', { token: ada.accessToken, body: { name: 'go.example.com' } })).body.data;
    dns.cnames.set('go.example.com', 'cname.lnk.example');
    dns.txts.set(added.verification.name, [added.verification.value]);
    expect((await t.request('POST', `/user/domain/${added.id}/verify`, { token: ada.accessToken })).status).toBe(200);
    domainId = added.id;
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const api = () => `127.0.0.1:${t.config.port}`;
  /** An API answer through the proxy, checked against the OpenAPI document like every e2e answer. */
  const checked = (method: string, path: string, answer: HttpsAnswer) => {
    const body = JSON.parse(answer.text);
    const broken = contract.check(method, path, answer.status, answer.contentType, body);
    if (broken.length) throw new Error(`The answer breaks the OpenAPI document:\n  ${broken.join('\n  ')}`);
    return body;
  };
  const createThrough = async (proxy: RunningProxy, slug: string) => {
    const answer = await overHttps(proxy, 'lnk.example', 'POST', '/user/link', {
      token: ada.accessToken,
      body: { url: `https://example.org/${slug}`, slug, domainId },
    });
    expect(answer.status).toBe(200);
    return checked('POST', '/user/link', answer).data;
  };

  describeWith({ caddy: [CADDY, 'version'] })(
    'Caddy with on-demand TLS (docs/proxy/Caddyfile), its internal CA standing in for ACME',
    () => {
      let caddy: RunningProxy;
      beforeAll(async () => {
        caddy = await startCaddy(api());
      });
      afterAll(() => caddy?.close());

      it(
        'gets the API a certificate for its own host, and the API reached ' + 'over HTTPS writes https:// short URLs of custom domains',
        async () => {
          const link = await createThrough(caddy, 'promo');
          expect(link.shortUrl).toBe('https://go.example.com/promo');
          // The same link asked for over plain HTTP, without the proxy: the scheme was the request's.
          expect((await t.request('GET', `/user/link/${link.id}`, { token: ada.accessToken })).body.data.shortUrl).toBe(
            'http://go.example.com/promo',
          );
        },
      );

      it('gets a verified custom domain a certificate at its first handshake, and its short URL redirects over HTTPS', async () => {
        await createThrough(caddy, 'spring');
        const visit = await overHttps(caddy, 'go.example.com', 'GET', '/spring');
        expect(visit.certificate.subjectaltname).toBe('DNS:go.example.com');
        expect(visit.status).toBe(302);
        expect(visit.headers['location']).toBe('https://example.org/spring');
      });

      // A certificate for any name would let anyone make the proxy obtain certificates at will (and exhaust its CA's limits).
      it('gets no certificate for a domain added but not verified, nor for an unknown name: the handshake fails', async () => {
        const pending = (await t.request('POST', '/user/domain', { token: ada.accessToken, body: { name: 'pending.example.com' } })).body
          .data;
        dns.cnames.set('pending.example.com', 'cname.lnk.example');
        for (const host of ['pending.example.com', 'unknown.example.org']) {
          await expect(overHttps(caddy, host, 'GET', '/')).rejects.toMatchObject({
            code: 'EPROTO',
            message: expect.stringMatching(/alert/),
          });
        }
        // Verified, it gets one at its next handshake.
        dns.txts.set(pending.verification.name, [pending.verification.value]);
        expect((await t.request('POST', `/user/domain/${pending.id}/verify`, { token: ada.accessToken })).status).toBe(200);
        expect((await overHttps(caddy, 'pending.example.com', 'GET', '/')).certificate.subjectaltname).toBe('DNS:pending.example.com');
      });
    },
  );

  describeWith({ nginx: [NGINX, '-v'], openssl: ['openssl', 'version'] })('nginx for fixed hosts (docs/proxy/nginx.conf)', () => {
    let nginx: RunningProxy & { checked: string };
    beforeAll(async () => {
      nginx = await startNginx(api(), selfSignedCertificate(['lnk.example', 's.lnk.example', 'go.example.com']));
    });
    afterAll(() => nginx?.close());

    it('passes nginx -t, and in front of the API writes https:// short URLs and redirects the custom domain over HTTPS', async () => {
      expect(nginx.checked).toMatch(/syntax is ok/);
      expect((await createThrough(nginx, 'autumn')).shortUrl).toBe('https://go.example.com/autumn');
      const visit = await overHttps(nginx, 'go.example.com', 'GET', '/autumn');
      expect(visit.status).toBe(302);
      expect(visit.headers['location']).toBe('https://example.org/autumn');
    });
  });
});
