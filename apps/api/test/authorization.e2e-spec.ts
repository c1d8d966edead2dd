import { SCOPES } from '@lnk/identity/domain';
import { SCOPE_TABLE } from '../src/auth/scope-table';
import { createAccount, createPat, identityOf, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

const ENTRIES = Object.entries(SCOPE_TABLE) as [string, string][];
const SOME_ID = '0123456789abcdef01234567';

function call(t: TestApp, entry: string, token?: string) {
  const [method, pattern] = entry.split(' ');
  return t.request(method, pattern.replace(':id', SOME_ID), { token, ...(['POST', 'PUT'].includes(method) ? { body: {} } : {}) });
}

describe('bearer authentication and the scope table', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createAccount(t);
  });
  afterAll(() => t?.close());

  describe.each(ENTRIES)('%s (scope %s)', (entry, scope) => {
    it('answers 401 UNAUTHORIZED without a token', async () => {
      const res = await call(t, entry);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    });

    it('answers 403 FORBIDDEN naming the scope to a token holding every other scope', async () => {
      const pat = await createPat(t, owner, SCOPES.filter((s) => s !== scope));
      const res = await call(t, entry, pat.token);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ status: 403, code: 'FORBIDDEN', meta: { requiredScope: scope } });
      expect(res.body.message).toContain(scope);
    });

    it('lets a token holding only that scope past authentication and authorisation', async () => {
      // A fresh account each time: one of these routes deletes the account it is called for.
      const account = await createAccount(t);
      const pat = await createPat(t, account, [scope]);
      const res = await call(t, entry, pat.token);
      expect([401, 403]).not.toContain(res.status);
      expect(res.status).toBeLessThan(500);
    });
  });

  describe('tokens that authenticate nobody', () => {
    it.each([
      ['a malformed header', { authorization: 'Bearer' }],
      ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['an unknown access token', { authorization: 'Bearer at_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
      ['an unknown PAT', { authorization: 'Bearer tkn_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
      ['a value of no known kind', { authorization: 'Bearer hello' }],
    ])('refuses %s with 401', async (_what, headers) => {
      const res = await t.request('GET', '/user/me', { headers });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    });

    it('refuses a refresh token used as a bearer token', async () => {
      expect((await t.request('GET', '/user/me', { token: owner.refreshToken })).status).toBe(401);
    });

    it('refuses a token in the query string', async () => {
      expect((await t.request('GET', `/user/me?access_token=${owner.accessToken}`)).status).toBe(401);
    });

    it('refuses an expired PAT', async () => {
      const account = await createAccount(t);
      const pat = await createPat(t, account, ['user:read'], { expiresAt: new Date(Date.now() + 1500).toISOString() });
      expect((await t.request('GET', '/user/me', { token: pat.token })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      expect((await t.request('GET', '/user/me', { token: pat.token })).status).toBe(401);
    });

    it('refuses the tokens of a deleted account at once, although they were just used', async () => {
      const account = await createAccount(t);
      const pat = await createPat(t, account, ['user:read']);
      expect((await t.request('GET', '/user/me', { token: pat.token })).status).toBe(200);
      expect((await t.request('DELETE', '/user/me', { token: account.accessToken })).status).toBe(200);
      expect((await t.request('GET', '/user/me', { token: pat.token })).status).toBe(401);
      expect((await t.request('GET', '/user/me', { token: account.accessToken })).status).toBe(401);
    });

    it('refuses the tokens of a deactivated account', async () => {
      const account = await createAccount(t);
      await t.dataSource.query('UPDATE users SET is_active = false WHERE id = $1', [account.id]);
      identityOf(t).authenticate.tokensRevoked();
      expect((await t.request('GET', '/user/me', { token: account.accessToken })).status).toBe(401);
    });
  });
});
