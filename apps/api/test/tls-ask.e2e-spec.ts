import { startDnsServer } from './support/dns-server';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

describe("GET /tls/ask: a TLS proxy's question before it obtains a certificate for a host", () => {
  let t: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let ada: TestAccount;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTestApp({
      env: {
        PUBLIC_BASE_URL: 'https://lnk.test',
        SHORT_BASE_URL: 'https://s.lnk.test',
        DNS_TARGET: 'cname.lnk.test',
        DNS_SERVERS: dns.address,
        // The public per-address budget, small: asks must not count against it (the proxy asks from one address).
        RATE_LIMIT_PUBLIC: '2/60',
      },
    });
    ada = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const ask = (domain: string) => t.request('GET', `/tls/ask?domain=${encodeURIComponent(domain)}`);
  const statusOf = async (domain: string) => (await ask(domain)).status;

  it("allows the service's own hosts (PUBLIC_BASE_URL's, SHORT_BASE_URL's) without a token", async () => {
    const res = await ask('LNK.TEST.');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200, code: 'OK', data: { domain: 'lnk.test' } });
    expect(await statusOf('s.lnk.test')).toBe(200);
  });

  it('allows a custom domain from the moment it is verified, refuses it before and from the moment it is deleted', async () => {
    const added = (await t.request('POST', '/user/domain', { token: ada.accessToken, body: { name: 'go.example.com' } })).body.data;
    const refused = await ask('go.example.com');
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    dns.cnames.set('go.example.com', 'cname.lnk.test');
    dns.txts.set(added.verification.name, [added.verification.value]);
    expect((await t.request('POST', `/user/domain/${added.id}/verify`, { token: ada.accessToken })).status).toBe(200);
    // The refusal kept a moment ago is forgotten with the verification.
    expect((await ask('Go.Example.com')).body.data).toEqual({ domain: 'go.example.com' });
    expect((await t.request('DELETE', `/user/domain/${added.id}`, { token: ada.accessToken })).status).toBe(200);
    expect(await statusOf('go.example.com')).toBe(404);
  });

  it('refuses any other host: unknown, under the service, the DNS target, a single label', async () => {
    for (const host of ['unknown.example.com', 'www.lnk.test', 'cname.lnk.test', 'localhost']) expect(await statusOf(host)).toBe(404);
  });

  it.each([
    ['an IPv4 address', '/tls/ask?domain=127.0.0.1'],
    ['an IPv6 address', '/tls/ask?domain=%5B%3A%3A1%5D'],
    ['a host with a port', '/tls/ask?domain=example.com%3A443'],
    ['a wildcard', '/tls/ask?domain=*.example.com'],
    ['an empty name', '/tls/ask?domain='],
    ['no name', '/tls/ask'],
    ['two names', '/tls/ask?domain=a.example.com&domain=b.example.com'],
    ['a name too long', `/tls/ask?domain=${'a'.repeat(301)}.com`],
  ])('refuses %s with VALIDATION_ERROR on domain', async (_, path) => {
    const res = await t.request('GET', path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', meta: { errors: [{ name: 'domain' }] } });
  });

  // Handshakes with made-up server names make the proxy ask for each: they are answered, never a fault or a stall,
  // and the service stays up for everything else.
  it('answers a burst of asks for made-up names with 404 or 429 only, past the public budget, and keeps serving', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => ask(`random-${i}-${Math.random().toString(36).slice(2)}.example.org`)),
    );
    for (const res of answers) {
      expect([404, 429]).toContain(res.status);
      expect(res.body.code).toBe(res.status === 404 ? 'NOT_FOUND' : 'RATE_LIMITED');
    }
    expect(await statusOf('s.lnk.test')).toBe(200);
    expect((await t.request('GET', '/health')).status).toBe(200);
  });
});
