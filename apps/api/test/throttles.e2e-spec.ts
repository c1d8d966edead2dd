import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { createAccount, createFirstPartyClient, identityOf, TestAccount } from './support/identity';
import { useTwoInstances } from './support/instances';
import { TestApp, useTestApp } from './support/test-app';

// Every request names its client address in X-Forwarded-For (believed with TRUST_PROXY=true), so one
// test can play an attacker at many addresses and the owner at another.
describe('sign-in throttle (guessing passwords over the password grant)', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { env: { TRUST_PROXY: 'true' } });

  const grant = (account: { clientId: string; clientSecret: string; email: string }, password: string, ip: string) =>
    t.request('POST', '/oauth/token', {
      body: { grant_type: 'password', client_id: account.clientId, client_secret: account.clientSecret, username: account.email, password },
      headers: { 'x-forwarded-for': ip },
    });

  async function victim(): Promise<{ clientId: string; clientSecret: string; email: string; password: string }> {
    const email = `victim-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const user = await identityOf(t).registerUser.execute({ email, password: 'the right password', name: 'Victim' });
    const client = await createFirstPartyClient(t, user.id);
    return { clientId: client.clientId, clientSecret: client.clientSecret, email, password: 'the right password' };
  }

  // The audit: the failure was counted after the bcrypt check, so 25 parallel guesses all reached it.
  it(
    'counts each guess before checking it: of 25 parallel wrong passwords from one ' +
      'address, only the allowance of 10 is checked, the rest are refused with 429',
    async () => {
      const account = await victim();
      const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => grant(account, `guess ${i}`, '198.51.100.10')));
      const checked = answers.filter((a) => a.status === 400);
      const refused = answers.filter((a) => a.status === 429);
      expect(checked).toHaveLength(10);
      expect(checked.map((a) => a.body.code)).toEqual(Array(10).fill('INVALID_GRANT'));
      expect(refused).toHaveLength(15);
      expect(refused.every((a) => a.body.code === 'RATE_LIMITED' && Number(a.headers.get('retry-after')) > 0)).toBe(true);
    },
    60_000,
  );

  // The audit (issue 27, item 5): with TRUST_PROXY=true, 100 parallel guesses naming 100 X-Forwarded-For
  // addresses all reached bcrypt; the account was only slowed down, per request and per process.
  it(
    "checks no more than the account's budget of 20 of 100 parallel guesses " +
      'from 100 addresses: the rest are refused with 429 before bcrypt',
    async () => {
      const account = await victim();
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => grant(account, `guess ${i}`, `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`)),
      );
      const checked = answers.filter((a) => a.status === 400);
      expect(checked).toHaveLength(20);
      expect(checked.every((a) => a.body.code === 'INVALID_GRANT')).toBe(true);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(80);
      expect(
        refused.every(
          (a) =>
            a.body.code === 'RATE_LIMITED' && Number(a.headers.get('retry-after')) > 0 && Number(a.headers.get('retry-after')) <= 15 * 60,
        ),
      ).toBe(true);
      // The right password from yet another address is refused too, for the rest of the window (at most 15 minutes).
      const stranger = await grant(account, account.password, '198.18.9.9');
      expect(stranger.status).toBe(429);
      expect(Number(stranger.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    },
    60_000,
  );

  // What the account budget could cost its owner: guessers spending it shut every stranger out, so the
  // addresses the owner signed in from lately keep their own allowance.
  it('keeps the owner in from an address they signed in from lately, while guessers at 30 others spend the account budget', async () => {
    const account = await victim();
    expect((await grant(account, account.password, '192.0.2.77')).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => grant(account, `guess ${i}`, `203.0.113.${i + 1}`)));
    expect(answers.filter((a) => a.status === 400)).toHaveLength(20);
    expect((await grant(account, account.password, '203.0.113.200')).status).toBe(429);
    const owner = await grant(account, account.password, '192.0.2.77');
    expect(owner.status).toBe(200);
    expect(owner.body.data.access_token).toMatch(/^at_/);
  }, 60_000);

  // A stolen token is no way round the budget: its guesses at the current password spend the same one.
  it('counts guesses at currentPassword (password change) against the same account budget as sign-ins', async () => {
    const account = await victim();
    const signIn = await grant(account, account.password, '192.0.2.80');
    const token: string = signIn.body.data.access_token;
    const signIns = await Promise.all(Array.from({ length: 15 }, (_, i) => grant(account, `guess ${i}`, `198.51.100.${i + 1}`)));
    expect(signIns.filter((a) => a.status === 400)).toHaveLength(15);
    const changes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.request('PUT', '/user/me/password', {
          token,
          body: { currentPassword: `guess ${i}`, newPassword: 'a brand new passphrase' },
          headers: { 'x-forwarded-for': `198.51.100.${i + 101}` },
        }),
      ),
    );
    expect(changes.filter((a) => a.status === 400).map((a) => a.body.meta.errors[0].name)).toEqual(Array(5).fill('currentPassword'));
    expect(changes.filter((a) => a.status === 429).map((a) => a.body.code)).toEqual(Array(5).fill('RATE_LIMITED'));
  }, 60_000);

  // One subscriber holds a whole IPv6 /64: a fresh address per guess must not bring a fresh allowance.
  it('counts the addresses of one IPv6 /64 as one address', async () => {
    const account = await victim();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => grant(account, `guess ${i}`, `2001:db8:7:7::${i + 1}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(400));
    expect((await grant(account, 'guess 10', '2001:db8:7:7:ffff::99')).status).toBe(429);
    expect((await grant(account, account.password, '2001:db8:7:8::1')).status).toBe(200);
  }, 60_000);
});

describe('link password throttle (guessing the password of a protected link)', () => {
  let t: TestApp;
  let ada: TestAccount;
  useTestApp(
    async (app) => {
      t = app;
      ada = await createAccount(app);
    },
    { env: { TRUST_PROXY: 'true' } },
  );

  const protect = async (slug: string, password = 'open sesame') => {
    const res = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: `https://example.com/${slug}`, slug, hasPassword: true, password },
    });
    expect(res.status).toBe(200);
    return res.body.data as { id: string };
  };
  const submit = (slug: string, password: string, ip: string) =>
    t.request('POST', `/${slug}`, {
      raw: { body: new URLSearchParams({ password }).toString(), contentType: 'application/x-www-form-urlencoded' },
      headers: { 'x-forwarded-for': ip },
    });

  // Issue 27: a cap per link across all addresses let anyone lock every visitor out: 110 wrong posts from
  // 110 addresses, then the right password got 429 for 15 minutes. Failures from anywhere now only slow a
  // link's guesses down (a bounded wait per request); refusal is per link and address.
  it(
    'never locks a link’s visitors out: after 110 wrong passwords from 110 ' + 'addresses, the right one from another address opens it',
    async () => {
      await protect('crowded');
      const answers = await Promise.all(Array.from({ length: 110 }, (_, i) => submit('crowded', `guess ${i}`, `198.51.100.${i + 1}`)));
      expect(answers.map((r) => r.status)).toEqual(Array(110).fill(401));
      const owner = await submit('crowded', 'open sesame', '192.0.2.200');
      expect(owner.status).toBe(200);
      expect(owner.text).toContain('https://example.com/crowded');
    },
    60_000,
  );

  it(
    'refuses one address its guesses at a link after its run of wrong ones (429, ' +
      'the right password too), while another address still opens it',
    async () => {
      await protect('one-address');
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => submit('one-address', `guess ${i}`, '203.0.113.77')));
      expect(answers.filter((r) => r.status === 401)).toHaveLength(10);
      expect(answers.filter((r) => r.status === 429)).toHaveLength(2);
      expect((await submit('one-address', 'open sesame', '203.0.113.77')).status).toBe(429);
      expect((await submit('one-address', 'open sesame', '203.0.113.78')).status).toBe(200);
      // Other links are not affected, from that address either.
      await protect('next-door');
      expect((await submit('next-door', 'open sesame', '203.0.113.77')).status).toBe(200);
    },
    60_000,
  );

  it('counts the guesses of one IPv6 /64 at a link together, and counts before checking', async () => {
    await protect('six');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => submit('six', `guess ${i}`, `2001:db8:1:2:${(i + 1).toString(16)}::1`)),
    );
    expect(answers.filter((r) => r.status === 401)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(15);
    expect((await submit('six', 'open sesame', '2001:db8:1:3::1')).status).toBeLessThan(400);
  }, 60_000);

  // A 4-character password fell quickly to guessing; links protected before the minimum rose keep working.
  it(
    'refuses a link password shorter than 8 characters on create and update with ' +
      'VALIDATION_ERROR on password, but still opens a link protected by a shorter one before',
    async () => {
      const short = await t.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'https://example.com/short', hasPassword: true, password: 'abcdefg' },
      });
      expect(short.status).toBe(400);
      expect(short.body).toMatchObject({ code: 'VALIDATION_ERROR', meta: { errors: [{ name: 'password' }] } });
      const legacy = await protect('legacy');
      const update = await t.request('PUT', `/user/link/${legacy.id}`, {
        token: ada.accessToken,
        body: { hasPassword: true, password: 'abcd' },
      });
      expect(update.status).toBe(400);
      expect(update.body).toMatchObject({ code: 'VALIDATION_ERROR', meta: { errors: [{ name: 'password' }] } });

      await t.dataSource.query('UPDATE links SET password_hash = $1 WHERE id = $2', [await bcrypt.hash('abcd', 4), legacy.id]);
      expect((await submit('legacy', 'abce', '192.0.2.9')).status).toBe(401);
      expect((await submit('legacy', 'abcd', '192.0.2.9')).status).toBeLessThan(400);
    },
  );
});

describe('sign-in throttle shared by two instances through Redis', () => {
  const instances = useTwoInstances({ TRUST_PROXY: 'true' });
  // Redis outlives the run: addresses fresh for each run, so that no earlier run's counts per address apply.
  const network = randomBytes(2).toString('hex');

  // The audit (issue 27, item 5): the counts were per process, so every instance granted an account its own allowance.
  it("checks no more than the account's budget of 100 parallel guesses from 100 addresses spread over two instances", async () => {
    const { a, b } = instances();
    const email = `shared-victim-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const user = await identityOf(a).registerUser.execute({ email, password: 'the right password', name: 'Victim' });
    const client = await createFirstPartyClient(a, user.id);
    const grant = (app: TestApp, password: string, ip: string) =>
      app.request('POST', '/oauth/token', {
        body: { grant_type: 'password', client_id: client.clientId, client_secret: client.clientSecret, username: email, password },
        headers: { 'x-forwarded-for': ip },
      });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => grant(i % 2 ? a : b, `guess ${i}`, `2001:db8:${network}:${i.toString(16)}::1`)),
    );
    expect(answers.filter((r) => r.status === 400)).toHaveLength(20);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(80);
    // Refused on both instances now, the right password from a stranger included.
    expect((await grant(a, 'the right password', `2001:db8:${network}:ffff::1`)).status).toBe(429);
    expect((await grant(b, 'the right password', `2001:db8:${network}:ffff::1`)).status).toBe(429);
  }, 60_000);
});
