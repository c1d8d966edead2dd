import { createAccount, TestAccount } from './support/identity';
import { startDnsServer } from './support/dns-server';
import { freePlanLimits, startTestApp, TestApp } from './support/test-app';

describe('custom domains over HTTP, verified against a DNS server on loopback', () => {
  let t: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let ada: TestAccount;
  let bob: TestAccount;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTestApp({ env: { DNS_SERVERS: dns.address, DNS_TARGET: 'cname.lnk.test', SHORT_BASE_URL: 'https://s.lnk.test', PLANS: freePlanLimits({ maxDomains: 3 }) } });
    ada = await createAccount(t);
    bob = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const add = (account: TestAccount, name: string) => t.request('POST', '/user/domain', { token: account.accessToken, body: { name } });
  const verify = (account: TestAccount, id: string) => t.request('POST', `/user/domain/${id}/verify`, { token: account.accessToken });

  it('adds a domain unverified with the DNS record to create, then verifies it once DNS answers', async () => {
    const added = await add(ada, 'Go.Example.com.');
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ name: 'go.example.com', isVerified: false, dnsRecord: 'CNAME cname.lnk.test', createdAt: expect.any(String) });

    const missing = await verify(ada, added.body.data.id);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('DOMAIN_NOT_VERIFIED');
    expect(missing.body.message).toMatch(/no CNAME/i);

    dns.cnames.set('go.example.com', 'elsewhere.test');
    const wrong = await verify(ada, added.body.data.id);
    expect(wrong.body.code).toBe('DOMAIN_NOT_VERIFIED');
    expect(wrong.body.message).toContain('elsewhere.test');

    dns.cnames.set('go.example.com', 'CNAME.lnk.test.');
    const ok = await verify(ada, added.body.data.id);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ id: added.body.data.id, name: 'go.example.com', isVerified: true, verifiedAt: expect.stringMatching(/Z$/) });

    const list = await t.request('GET', '/user/domain?q=example', { token: ada.accessToken });
    expect(list.body.meta).toEqual({ total: 1, start: 0, limit: 10 });
    expect(list.body.data[0]).toMatchObject({ name: 'go.example.com', isVerified: true, dnsRecord: 'CNAME cname.lnk.test' });
  });

  it('stores internationalised names in punycode', async () => {
    const res = await add(ada, 'bücher.example');
    expect(res.body.data.name).toBe('xn--bcher-kva.example');
    await t.request('DELETE', `/user/domain/${res.body.data.id}`, { token: ada.accessToken });
  });

  it.each(['127.0.0.1', '[::1]', 'example.com:8080', 'localhost', 'https://example.com/path', 's.lnk.test', 'cname.lnk.test', '-bad-.example', ''])(
    'refuses %p with VALIDATION_ERROR on name',
    async (name) => {
      const res = await add(ada, name);
      expect(res.status).toBe(400);
      expect(res.body.meta.errors[0].name).toBe('name');
    },
  );

  it('refuses a name another account has verified, and another account’s domain is 404', async () => {
    const mine = await t.request('GET', '/user/domain?q=go.example.com', { token: ada.accessToken });
    const id = mine.body.data[0].id;
    const taken = await add(bob, 'go.example.com');
    expect(taken.status).toBe(400);
    expect(taken.body.meta.errors[0].name).toBe('name');
    expect((await verify(bob, id)).status).toBe(404);
    expect((await t.request('DELETE', `/user/domain/${id}`, { token: bob.accessToken })).status).toBe(404);
  });

  it('serves links on a verified domain, and refuses deleting it while links use it', async () => {
    const mine = await t.request('GET', '/user/domain?q=go.example.com', { token: ada.accessToken });
    const domainId = mine.body.data[0].id;
    const link = await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://example.org/', slug: 'promo', domainId } });
    expect(link.status).toBe(200);
    expect(link.body.data).toMatchObject({ domainId, shortUrl: 'https://go.example.com/promo' });
    const bobs = await t.request('POST', '/user/link', { token: bob.accessToken, body: { url: 'https://example.org/', domainId } });
    expect(bobs.status).toBe(400);
    expect(bobs.body.meta.errors[0].name).toBe('domainId');

    const refused = await t.request('DELETE', `/user/domain/${domainId}`, { token: ada.accessToken });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    await t.request('DELETE', `/user/link/${link.body.data.id}`, { token: ada.accessToken });
    expect((await t.request('DELETE', `/user/domain/${domainId}`, { token: ada.accessToken })).status).toBe(200);
  });

  it('refuses an unverified domain for a link', async () => {
    const added = await add(ada, 'unverified.example.com');
    const res = await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://example.org/', domainId: added.body.data.id } });
    expect(res.status).toBe(400);
    expect(res.body.meta.errors[0].name).toBe('domainId');
    await t.request('DELETE', `/user/domain/${added.body.data.id}`, { token: ada.accessToken });
  });

  it('stops at the domain quota with QUOTA_EXCEEDED', async () => {
    const ids: string[] = [];
    for (const name of ['q1.example.com', 'q2.example.com', 'q3.example.com']) {
      const res = await add(bob, name);
      expect(res.status).toBe(200);
      ids.push(res.body.data.id);
    }
    const over = await add(bob, 'q4.example.com');
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ code: 'QUOTA_EXCEEDED', meta: { limit: { resource: 'domains', used: 3, limit: 3 } } });
    for (const id of ids) await t.request('DELETE', `/user/domain/${id}`, { token: bob.accessToken });
  });
});
