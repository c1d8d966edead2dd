import { createTestDatabase } from '@lnk/shared/testing';
import { createAccount, identityOf, TestAccount } from './support/identity';
import { startTestApp, TestApp, useTestApp } from './support/test-app';

const redisUrl = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('rate limits (spec 7: 429)', () => {
  let t: TestApp;
  let ada: TestAccount;
  useTestApp(
    async (app) => {
      t = app;
      ada = await createAccount(app);
    },
    { env: { RATE_LIMIT_API: '3/60', RATE_LIMIT_PUBLIC: '1000/60', TRUST_PROXY: 'true' } },
  );

  /** A PAT made as the operator CLI makes it: no API request, so no budget spent on making it. */
  const operatorPat = async (account: TestAccount, scopes = ['user:read']) => ({
    token: (await identityOf(t).operator.createPat.execute(account.email, { name: 'budget test', scopes })).value,
  });

  it('counts each account against its API budget and answers 429 RATE_LIMITED with Retry-After and RateLimit-* headers', async () => {
    const pat = await operatorPat(ada);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await t.request('GET', '/user/me', { token: pat.token });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe('3');
      expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      remaining.push(answer.headers.get('ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await t.request('GET', '/user/me', { token: pat.token });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-limit')).toBe('3');

    // Another account has a budget of its own; health is never limited.
    const other = await createAccount(t);
    expect((await t.request('GET', '/user/me', { token: other.accessToken })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await t.request('GET', '/health')).status).toBe(200);
  });

  // The audit (issue 27, item 8): the budget was per token, so each PAT an account minted (120 of them)
  // brought a fresh budget of its own.
  it(
    'counts every token of an account against one budget: a second PAT is ' +
      'refused where the first left off, while another account is not',
    async () => {
      const grace = await createAccount(t);
      const [first, second] = [await operatorPat(grace), await operatorPat(grace)];
      const me = (token: string) => t.request('GET', '/user/me', { token });
      const spent = [await me(first.token), await me(first.token)];
      expect(spent.map((a) => [a.status, a.headers.get('ratelimit-remaining')])).toEqual([
        [200, '2'],
        [200, '1'],
      ]);
      const third = await me(second.token);
      expect([third.status, third.headers.get('ratelimit-remaining')]).toEqual([200, '0']);
      const refused = await me(second.token);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      // A new PAT, or the account's own sign-in, brings nothing more.
      expect((await me((await operatorPat(grace)).token)).status).toBe(429);
      expect((await me(grace.accessToken)).status).toBe(429);
      expect((await me((await createAccount(t)).accessToken)).status).toBe(200);
    },
  );

  it('counts requests without a token against the client address (X-Forwarded-For believed with TRUST_PROXY)', async () => {
    const from = (ip: string) => t.request('GET', '/user/me', { headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).status).toBe(401);
    expect((await from('203.0.113.7')).status).toBe(429);
    expect((await from('203.0.113.8')).status).toBe(401);
  });

  // The audit: the budget was keyed on the raw bearer string before it was checked, so every made-up
  // token brought a fresh budget and a flood of them was never limited.
  it(
    'counts requests with made-up tokens against their address: 100 distinct ones hit ' +
      '429 after the API limit, while a valid token keeps its own budget',
    async () => {
      const guess = (i: number) =>
        t.request('GET', '/user/me', { token: `at_made-up-${i}`, headers: { 'x-forwarded-for': '203.0.113.20' } });
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) statuses.push((await guess(i)).status);
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3)).toEqual(Array(97).fill(429));
      const refused = await guess(100);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

      // From the same address, a valid token is counted on its account's budget, not the address's.
      const grace = await createAccount(t);
      const pat = await operatorPat(grace);
      const valid = () => t.request('GET', '/user/me', { token: pat.token, headers: { 'x-forwarded-for': '203.0.113.20' } });
      expect([(await valid()).status, (await valid()).status, (await valid()).status]).toEqual([200, 200, 200]);
      expect((await valid()).status).toBe(429);
      // Requests a token is refused (a scope it lacks) count against its account too.
      const narrow = await operatorPat(await createAccount(t));
      const denied = () => t.request('GET', '/user/link', { token: narrow.token, headers: { 'x-forwarded-for': '203.0.113.21' } });
      expect([(await denied()).status, (await denied()).status, (await denied()).status, (await denied()).status]).toEqual([
        403, 403, 403, 429,
      ]);
    },
  );

  it('counts the addresses of one IPv6 /64 as one address', async () => {
    const from = (ip: string) => t.request('GET', '/user/me', { headers: { 'x-forwarded-for': ip } });
    for (let i = 1; i <= 3; i++) expect((await from(`2001:db8:5:5::${i}`)).status).toBe(401);
    expect((await from('2001:db8:5:5:ffff::4')).status).toBe(429);
    expect((await from('2001:db8:5:6::1')).status).toBe(401);
  });
});

describe('rate limits of the public endpoints', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { env: { RATE_LIMIT_PUBLIC: '2/60', TRUST_PROXY: 'false' } });

  it('limits the OAuth token endpoint per address, and X-Forwarded-For is ignored without TRUST_PROXY', async () => {
    const token = (ip: string) =>
      t.request('POST', '/oauth/token', {
        body: { grant_type: 'password', username: 'x@example.com', password: 'nope' },
        headers: { 'x-forwarded-for': ip },
      });
    expect((await token('198.51.100.1')).status).not.toBe(429);
    expect((await token('198.51.100.2')).status).not.toBe(429);
    const third = await token('198.51.100.3');
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('RATE_LIMITED');
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('rate limit of the short-link password form', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { env: { RATE_LIMIT_PUBLIC: '2/60', TRUST_PROXY: 'true' } });

  it('counts password submissions against the address, with the RateLimit-* headers', async () => {
    const ada = await createAccount(t);
    const link = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://dest.example/', slug: 'locked', hasPassword: true, password: 'open sesame' },
    });
    expect(link.status).toBe(200);
    const submit = (password: string) =>
      t.request('POST', '/locked', {
        raw: { body: `password=${encodeURIComponent(password)}`, contentType: 'application/x-www-form-urlencoded' },
        headers: { 'x-forwarded-for': '192.0.2.50' },
      });
    const first = await submit('wrong');
    expect(first.status).toBe(401);
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect((await submit('wrong again')).status).toBe(401);
    const third = await submit('open sesame');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(third.text).toContain('Too many attempts');
  });
});

describe('rate limits shared by two instances through Redis', () => {
  it('holds one budget across instances', async () => {
    const database = await createTestDatabase();
    const env = { RATE_LIMIT_API: '4/60', REDIS_URL: redisUrl };
    const a = await startTestApp({ env, database });
    const b = await startTestApp({ env, database });
    try {
      const ada = await createAccount(a);
      // Made as the CLI makes it, so that no request of the budget goes into making it.
      const pat = { token: (await identityOf(a).operator.createPat.execute(ada.email, { name: 'shared', scopes: ['user:read'] })).value };
      const statuses = [];
      for (const app of [a, b, a, b, a, b]) statuses.push((await app.request('GET', '/user/me', { token: pat.token })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await a.close();
      await b.close();
      await database.drop();
    }
  });
});
