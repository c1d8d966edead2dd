import type { Domains } from '@lnk/composition';
import { TwoInstances, useTwoInstances, within } from './support/instances';
import { createAccount } from './support/identity';
import type { TestApp } from './support/test-app';
import { visitAs } from './support/visitor';

describe('two instances sharing PostgreSQL and Redis', () => {
  const instances = useTwoInstances();
  let a: TestApp;
  let b: TestApp;
  let dns: TwoInstances['dns'];
  beforeAll(() => ({ a, b, dns } = instances()));

  const locationOn = async (app: TestApp, path: string) =>
    (await fetch(app.baseUrl + path, { redirect: 'manual' })).headers.get('location');
  const statusOn = async (app: TestApp, host: string, path: string) => (await visitAs(app.baseUrl, host, path)).status;

  it('stops serving an old destination on the other instance within a second of an update', async () => {
    const account = await createAccount(a);
    const created = await a.request('POST', '/user/link', {
      token: account.accessToken,
      body: { url: 'https://example.com/old', slug: 'shared' },
    });
    expect(await locationOn(b, '/shared')).toBe('https://example.com/old'); // now cached on b
    await a.request('PUT', `/user/link/${created.body.data.id}`, { token: account.accessToken, body: { url: 'https://example.com/new' } });
    expect(await within(1000, async () => (await locationOn(b, '/shared')) === 'https://example.com/new')).toBe(true);
    await a.request('DELETE', `/user/link/${created.body.data.id}`, { token: account.accessToken });
    expect(await within(1000, async () => (await fetch(`${b.baseUrl}/shared`, { redirect: 'manual' })).status === 404)).toBe(true);
  });

  // Issue 13: the other instance kept the "not found" it had cached before the link existed (no broadcast on create).
  it('answers a link on the other instance within a second of its creation, though it had just answered 404 there', async () => {
    const account = await createAccount(a);
    const before = await fetch(`${b.baseUrl}/fresh-abc`, { redirect: 'manual' });
    expect(before.status).toBe(404); // "not found" now cached on b
    await a.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/fresh', slug: 'fresh-abc' } });
    expect(await within(1000, async () => (await locationOn(b, '/fresh-abc')) === 'https://example.com/fresh')).toBe(true);
  });

  // The domain twin: the other instance had cached the host as unknown before its verification.
  it(
    'serves a custom domain on the other instance within a second of its ' + 'verification, though its host was just unknown there',
    async () => {
      const account = await createAccount(a);
      const domain = (await a.request('POST', '/user/domain', { token: account.accessToken, body: { name: 'fresh.example.com' } })).body
        .data;
      expect(await statusOn(b, 'fresh.example.com', '/promo')).toBe(404); // the host is now cached on b as unknown
      dns.cnames.set('fresh.example.com', 'cname.lnk.test');
      dns.txts.set(domain.verification.name, [domain.verification.value]);
      expect((await a.request('POST', `/user/domain/${domain.id}/verify`, { token: account.accessToken })).status).toBe(200);
      await a.request('POST', '/user/link', {
        token: account.accessToken,
        body: { url: 'https://example.com/fresh-domain', slug: 'promo', domainId: domain.id },
      });
      expect(await within(1000, async () => (await statusOn(b, 'fresh.example.com', '/promo')) === 302)).toBe(true);
    },
  );

  it('refuses a token on the other instance as soon as it is revoked', async () => {
    const account = await createAccount(a);
    expect((await b.request('GET', '/user/me', { token: account.accessToken })).status).toBe(200); // cached on b
    await a.request('POST', '/oauth/revoke', { body: { token: account.accessToken } });
    expect(await within(1000, async () => (await b.request('GET', '/user/me', { token: account.accessToken })).status === 401)).toBe(true);
  });

  // GET /user/me answers from each instance's cache of accounts: without the broadcast of a change, the
  // other instance would show the old address (and accept a deleted account's PAT) until its cache's TTL.
  it("shows an account's change on the other instance within a second, though it had just answered from its cache", async () => {
    const account = await createAccount(a);
    const me = async () => (await b.request('GET', '/user/me', { token: account.accessToken })).body.data;
    expect((await me()).email).toBe(account.email); // now cached on b
    const newEmail = `moved-${Date.now()}@example.com`;
    expect((await a.request('PUT', '/user/me/email', { token: account.accessToken, body: { email: newEmail } })).status).toBe(200);
    expect(await within(1000, async () => (await me()).email === newEmail)).toBe(true);
    expect((await me()).isVerified).toBe(false);
  });

  it("refuses a deleted account's tokens on the other instance within a second, though its account was cached there", async () => {
    const account = await createAccount(a);
    const pat = (await a.request('POST', '/user/tokens', { token: account.accessToken, body: { name: 'ci', scopes: ['user:read'] } })).body
      .data.token as string;
    expect((await b.request('GET', '/user/me', { token: pat })).status).toBe(200); // token and account cached on b
    expect((await a.request('DELETE', '/user/me', { token: account.accessToken })).status).toBe(200);
    expect(await within(1000, async () => (await b.request('GET', '/user/me', { token: pat })).status === 401)).toBe(true);
  });

  it('stops serving a custom domain on the other instance as soon as a re-check takes its verification away', async () => {
    const account = await createAccount(a);
    const domain = (await a.request('POST', '/user/domain', { token: account.accessToken, body: { name: 'multi.example.com' } })).body.data;
    dns.cnames.set('multi.example.com', 'cname.lnk.test');
    dns.txts.set(domain.verification.name, [domain.verification.value]);
    expect((await a.request('POST', `/user/domain/${domain.id}/verify`, { token: account.accessToken })).status).toBe(200);
    await a.request('POST', '/user/link', {
      token: account.accessToken,
      body: { url: 'https://example.com/multi', slug: 'multi', domainId: domain.id },
    });
    expect(await statusOn(b, 'multi.example.com', '/multi')).toBe(302); // the host is now cached on b for 30 s

    dns.cnames.delete('multi.example.com');
    expect((await (a.app.get('CONTEXTS') as { domains: Domains }).domains.recheck.execute()).lost).toBe(1);
    expect(await within(1000, async () => (await statusOn(b, 'multi.example.com', '/multi')) === 404)).toBe(true);
  });
});
