import type { Domains } from '@lnk/composition';
import { createAccount, TestAccount } from './support/identity';
import { startDnsServer } from './support/dns-server';
import { freePlanLimits, startTestApp, TestApp } from './support/test-app';
import { visitAs } from './support/visitor';

describe('custom domains over HTTP, verified against a DNS server on loopback', () => {
  let t: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let ada: TestAccount;
  let bob: TestAccount;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTestApp({
      env: {
        DNS_SERVERS: dns.address,
        DNS_TARGET: 'cname.lnk.test',
        SHORT_BASE_URL: 'https://s.lnk.test',
        PLANS: freePlanLimits({ maxDomains: 3 }),
      },
    });
    ada = await createAccount(t);
    bob = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const add = (account: TestAccount, name: string) => t.request('POST', '/user/domain', { token: account.accessToken, body: { name } });
  const verify = (account: TestAccount, id: string) => t.request('POST', `/user/domain/${id}/verify`, { token: account.accessToken });
  const domainNamed = async (account: TestAccount, name: string) =>
    (await t.request('GET', `/user/domain?q=${name}`, { token: account.accessToken })).body.data.find(
      (d: { name: string }) => d.name === name,
    );
  /** Publishes the TXT challenge a domain object shows. */
  const publishChallenge = (domain: { verification: { name: string; value: string } }) =>
    dns.txts.set(domain.verification.name, [domain.verification.value]);
  const statusOn = async (host: string, path: string) => (await visitAs(t.baseUrl, host, path)).status;

  it(
    'adds a domain unverified with the DNS records to create, then ' + 'verifies it once DNS has both its TXT challenge and the CNAME',
    async () => {
      const added = await add(ada, 'Go.Example.com.');
      expect(added.status).toBe(200);
      expect(added.body.data).toMatchObject({
        name: 'go.example.com',
        isVerified: false,
        dnsRecord: 'CNAME cname.lnk.test',
        addressRecords: [],
        verification: { type: 'TXT', name: '_lnk-challenge.go.example.com', value: expect.stringMatching(/^[0-9a-f]{32}$/) },
        verificationLostAt: null,
        verificationLostReason: null,
        createdAt: expect.any(String),
      });

      const missing = await verify(ada, added.body.data.id);
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('DOMAIN_NOT_VERIFIED');
      expect(missing.body.message).toBe(
        "DNS has no TXT record _lnk-challenge.go.example.com with this domain's " +
          'challenge and no CNAME record go.example.com -> cname.lnk.test',
      );

      // A CNAME alone proves nothing about who controls the name.
      dns.cnames.set('go.example.com', 'cname.lnk.test');
      const cnameOnly = await verify(ada, added.body.data.id);
      expect(cnameOnly.body).toMatchObject({
        code: 'DOMAIN_NOT_VERIFIED',
        message: "DNS has no TXT record _lnk-challenge.go.example.com with this domain's challenge",
      });

      publishChallenge(added.body.data);
      dns.cnames.set('go.example.com', 'CNAME.lnk.test.');
      const ok = await verify(ada, added.body.data.id);
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({
        id: added.body.data.id,
        name: 'go.example.com',
        isVerified: true,
        verifiedAt: expect.stringMatching(/Z$/),
      });

      const list = await t.request('GET', '/user/domain?q=example', { token: ada.accessToken });
      expect(list.body.meta).toEqual({ total: 1, start: 0, limit: 10, nextCursor: null });
      expect(list.body.data[0]).toMatchObject({
        name: 'go.example.com',
        isVerified: true,
        dnsRecord: 'CNAME cname.lnk.test',
        verification: added.body.data.verification,
      });
    },
  );

  it('says only which expected record is missing, never what DNS answered (no DNS lookup tool through the server)', async () => {
    const added = await add(ada, 'probe.example.com');
    dns.cnames.set('probe.example.com', 'db-primary.internal.corp');
    dns.txts.set('_lnk-challenge.probe.example.com', ['internal-token-abc']);
    const res = await verify(ada, added.body.data.id);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      "DNS has no TXT record _lnk-challenge.probe.example.com with this domain's " +
        'challenge and no CNAME record probe.example.com -> cname.lnk.test',
    );
    expect(res.text).not.toMatch(/internal|db-primary|abc/);
    await t.request('DELETE', `/user/domain/${added.body.data.id}`, { token: ada.accessToken });
  });

  it(
    'gives two accounts adding one name their own challenges, and verifies only the one ' +
      'whose TXT is published (pre-claiming a name its owner pointed here)',
    async () => {
      const owners = (await add(ada, 'shared.example.com')).body.data;
      const attackers = (await add(bob, 'shared.example.com')).body.data;
      expect(attackers.verification.name).toBe(owners.verification.name);
      expect(attackers.verification.value).not.toBe(owners.verification.value);
      // The owner has pointed the name at the service and published their challenge, but has not clicked verify yet.
      dns.cnames.set('shared.example.com', 'cname.lnk.test');
      publishChallenge(owners);
      const refused = await verify(bob, attackers.id);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'DOMAIN_NOT_VERIFIED',
        message: "DNS has no TXT record _lnk-challenge.shared.example.com with this domain's challenge",
      });
      expect((await verify(ada, owners.id)).body.data.isVerified).toBe(true);
      expect((await domainNamed(bob, 'shared.example.com')).isVerified).toBe(false);
      for (const [account, id] of [
        [ada, owners.id],
        [bob, attackers.id],
      ] as const)
        await t.request('DELETE', `/user/domain/${id}`, { token: account.accessToken });
    },
  );

  it(
    'takes the verification away when a re-check finds the records gone: the domain says why, its ' +
      'links answer 404 at once, and the owner can verify again (takeover of a dangling name)',
    async () => {
      const added = (await add(ada, 'lost.example.com')).body.data;
      dns.cnames.set('lost.example.com', 'cname.lnk.test');
      publishChallenge(added);
      expect((await verify(ada, added.id)).status).toBe(200);
      const link = await t.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'https://example.org/lost', slug: 'lost-soon', domainId: added.id },
      });
      expect(await statusOn('lost.example.com', '/lost-soon')).toBe(302); // the host is now in the redirect cache

      dns.txts.delete(added.verification.name);
      const recheck = (t.app.get('CONTEXTS') as { domains: Domains }).domains.recheck;
      expect((await recheck.execute()).lost).toBe(1);
      const lost = await domainNamed(ada, 'lost.example.com');
      expect(lost).toMatchObject({
        isVerified: false,
        verifiedAt: null,
        verificationLostAt: expect.stringMatching(/Z$/),
        verificationLostReason: "DNS has no TXT record _lnk-challenge.lost.example.com with this domain's challenge",
      });
      expect(await statusOn('lost.example.com', '/lost-soon')).toBe(404);
      const onLost = await t.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'https://example.org/', domainId: added.id },
      });
      expect(onLost.body.meta.errors[0].name).toBe('domainId');

      publishChallenge(added);
      expect((await verify(ada, added.id)).body.data.isVerified).toBe(true);
      expect(await domainNamed(ada, 'lost.example.com')).toMatchObject({
        isVerified: true,
        verificationLostAt: null,
        verificationLostReason: null,
      });
      expect(await statusOn('lost.example.com', '/lost-soon')).toBe(302);
      // Records in place: a re-check keeps it.
      expect((await recheck.execute()).lost).toBe(0);
      await t.request('DELETE', `/user/link/${link.body.data.id}`, { token: ada.accessToken });
      await t.request('DELETE', `/user/domain/${added.id}`, { token: ada.accessToken });
    },
  );

  it('stores internationalised names in punycode', async () => {
    const res = await add(ada, 'bücher.example');
    expect(res.body.data.name).toBe('xn--bcher-kva.example');
    await t.request('DELETE', `/user/domain/${res.body.data.id}`, { token: ada.accessToken });
  });

  it.each([
    '127.0.0.1',
    '[::1]',
    'example.com:8080',
    'localhost',
    'https://example.com/path',
    's.lnk.test',
    'cname.lnk.test',
    '-bad-.example',
    '',
  ])('refuses %p with VALIDATION_ERROR on name', async (name) => {
    const res = await add(ada, name);
    expect(res.status).toBe(400);
    expect(res.body.meta.errors[0].name).toBe('name');
  });

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
    const link = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://example.org/', slug: 'promo', domainId },
    });
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
    const res = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://example.org/', domainId: added.body.data.id },
    });
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

describe('apex custom domains over HTTP: A/AAAA records at DNS_TARGET_ADDRESSES instead of a CNAME', () => {
  let t: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let ada: TestAccount;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTestApp({
      env: {
        DNS_SERVERS: dns.address,
        DNS_TARGET: 'cname.lnk.test',
        DNS_TARGET_ADDRESSES: '203.0.113.10,2001:DB8::10',
        SHORT_BASE_URL: 'https://s.lnk.test',
      },
    });
    ada = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it(
    'tells the owner the address records besides the CNAME, and verifies a ' + 'zone apex whose A and AAAA records are all the service',
    async () => {
      const added = await t.request('POST', '/user/domain', { token: ada.accessToken, body: { name: 'example.net' } });
      expect(added.body.data).toMatchObject({
        dnsRecord: 'CNAME cname.lnk.test',
        addressRecords: [
          { type: 'A', value: '203.0.113.10' },
          { type: 'AAAA', value: '2001:db8::10' },
        ],
      });
      expect(added.body.message).toBe(
        'Domain added: create the DNS records CNAME cname.lnk.test (or, at a zone apex, A ' +
          '203.0.113.10 and AAAA 2001:db8::10) and TXT _lnk-challenge.example.net, then verify',
      );
      const id = added.body.data.id;
      dns.txts.set('_lnk-challenge.example.net', [added.body.data.verification.value]);
      // A second A record elsewhere would send some visitors (and certificate checks) away from the service.
      dns.as.set('example.net', ['203.0.113.10', '198.51.100.7']);
      const elsewhere = await t.request('POST', `/user/domain/${id}/verify`, { token: ada.accessToken });
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body).toMatchObject({
        code: 'DOMAIN_NOT_VERIFIED',
        message: 'DNS has no CNAME record example.net -> cname.lnk.test nor A/AAAA records pointing only at 203.0.113.10, 2001:db8::10',
      });
      expect(elsewhere.text).not.toContain('198.51.100.7');

      dns.as.set('example.net', ['203.0.113.10']);
      dns.aaaas.set('example.net', ['2001:db8:0:0:0:0:0:10']);
      const verified = await t.request('POST', `/user/domain/${id}/verify`, { token: ada.accessToken });
      expect(verified.status).toBe(200);
      expect(verified.body.data).toMatchObject({ name: 'example.net', isVerified: true });
      const link = await t.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'https://example.org/apex', slug: 'apex', domainId: id },
      });
      expect(link.body.data.shortUrl).toBe('https://example.net/apex');
      expect((await visitAs(t.baseUrl, 'example.net', '/apex')).status).toBe(302);
    },
  );
});
