import { createAccount, createFirstPartyClient, createPat, identityOf, TestAccount } from './support/identity';
import { startSmtpServer } from './support/smtp-server';
import { startTestApp, TestApp } from './support/test-app';
import { startTestIdp, type TestIdp } from './support/test-idp';

/**
 * Personal access tokens as issue 27 left them: they live until their own `expiresAt` (spec 2.4), so a
 * stolen session must not be able to leave one behind unnoticed (minting needs a fresh sign-in or the
 * password, and the account is mailed); an account holds a bounded number of active ones; and every
 * account can revoke them all at once.
 */
describe('personal access tokens over HTTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  // An identity provider of the test's own, for an account that has no password.
  let idp: TestIdp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    idp = await startTestIdp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, PAT_LIMIT: '3', IDP_PROVIDERS: idp.providers } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await idp?.close();
  });

  const create = (token: string, body: Record<string, unknown> = {}) =>
    t.request('POST', '/user/tokens', { token, body: { name: 'ci', scopes: ['links:read'], ...body } });
  const works = async (token: string) => (await t.request('GET', '/user/link', { token })).status === 200;
  const activeIds = async (account: TestAccount) =>
    (await t.request('GET', '/user/tokens?limit=100', { token: account.accessToken })).body.data.map((p: { id: string }) => p.id).sort();

  /** Moves the account's sign-ins eleven minutes into the past, as if the session had been taken a while ago. */
  async function makeStale(account: TestAccount): Promise<void> {
    await t.dataSource.query(`UPDATE oauth_tokens SET auth_time = auth_time - interval '11 minutes' WHERE user_id = $1`, [account.id]);
    identityOf(t).principalCache.tokensRevoked(); // the principal cache holds the sign-in time too
  }

  /** The notices of new PATs mailed to `address`. Mail bodies travel quoted-printable: soft line breaks and =XX escapes undone. */
  const noticesTo = (address: string) =>
    smtp.messages
      .filter((m) => m.to.includes(address))
      .map((m) => m.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))))
      .filter((raw) => raw.includes('Subject: A personal access token was created for your account'));

  /** An account with no password, signed in through the identity provider just now. */
  async function idpAccount(subject: string): Promise<{ id: string; accessToken: string }> {
    const client = await createFirstPartyClient(t);
    const idToken = await idp.idToken({ email: `${subject}@example.com`, email_verified: true, name: 'Only IdP' }, { sub: subject });
    const signedIn = await t.request('POST', '/oauth/idp', { body: { token: idToken, client_id: client.clientId } });
    expect(signedIn.status).toBe(200);
    return { id: signedIn.body.data.user.id, accessToken: signedIn.body.data.access_token };
  }

  describe('lifetime (spec 2.4: a PAT does not expire unless expiresAt is set)', () => {
    it('gives a PAT made through a sign-in no expiry, and keeps it working after that session is signed out', async () => {
      const ada = await createAccount(t);
      const created = await create(ada.accessToken);
      expect(created.status).toBe(200);
      expect(created.body.data.expiresAt).toBeNull();
      const detail = await t.request('GET', `/user/tokens/${created.body.data.id}`, { token: ada.accessToken });
      expect(detail.body.data).toMatchObject({ expiresAt: null, isActive: true, isExpired: false });
      const signOut = await t.request('POST', '/oauth/revoke', {
        body: {
          token: ada.refreshToken,
          token_type_hint: 'refresh_token',
          client_id: ada.client.clientId,
          client_secret: ada.client.clientSecret,
        },
      });
      expect(signOut.status).toBe(200);
      expect((await t.request('GET', '/user/me', { token: ada.accessToken })).status).toBe(401);
      expect(await works(created.body.data.token)).toBe(true);
    });
  });

  describe('a stolen session cannot leave a token behind unnoticed', () => {
    // Issue 27, item 12: the PAT outlives the session; minting it is therefore a sensitive action.
    it(
      'refuses a session signed in more than 10 minutes ago without ' +
        'currentPassword (403 REAUTHENTICATION_REQUIRED), and makes nothing',
      async () => {
        const ada = await createAccount(t);
        await makeStale(ada);
        const refused = await create(ada.accessToken);
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({
          status: 403,
          code: 'REAUTHENTICATION_REQUIRED',
          message: expect.stringContaining('currentPassword'),
        });
        const wrong = await create(ada.accessToken, { currentPassword: 'not the password' });
        expect([wrong.status, wrong.body.code, wrong.body.meta.errors]).toEqual([
          400,
          'VALIDATION_ERROR',
          [{ name: 'currentPassword', error: 'the current password is not correct' }],
        ]);
        expect(await activeIds(ada)).toEqual([]);
        expect(noticesTo(ada.email)).toEqual([]);
        const right = await create(ada.accessToken, { currentPassword: ada.password });
        expect(right.status).toBe(200);
        expect(right.text).not.toContain(ada.password);
      },
    );

    it('never counts a PAT as a sign-in: a PAT making a PAT sends currentPassword', async () => {
      const ada = await createAccount(t);
      const pat = await createPat(t, ada, ['tokens:write', 'links:read']);
      const refused = await create(pat.token);
      expect([refused.status, refused.body.code]).toEqual([403, 'REAUTHENTICATION_REQUIRED']);
      expect((await create(pat.token, { currentPassword: ada.password })).status).toBe(200);
    });

    it('tells an account without a password, asking with a PAT, to sign in again with its identity provider', async () => {
      const only = await idpAccount('idp-pat-maker');
      const pat = await create(only.accessToken, { scopes: ['tokens:write', 'links:read'] });
      expect(pat.status).toBe(200);
      const refused = await create(pat.body.data.token, { currentPassword: 'a guess' });
      expect([refused.status, refused.body.code]).toEqual([403, 'REAUTHENTICATION_REQUIRED']);
      expect(refused.body.message).toContain('identity provider');
    });

    it('mails the account of every new PAT, naming it and the address it came from, never its value', async () => {
      const ada = await createAccount(t);
      const created = await create(ada.accessToken, { name: 'deploy script', scopes: ['links:read', 'links:write'] });
      const [mail, ...more] = noticesTo(ada.email);
      expect(more).toEqual([]);
      for (const part of [
        '"deploy script"',
        'links:read links:write',
        'Expires: never',
        '127.0.0.1',
        `/user/tokens/${created.body.data.id}`,
      ])
        expect(mail).toContain(part);
      expect(mail).not.toContain(created.body.data.token);
    });
  });

  describe('the bound on active PATs (PAT_LIMIT=3 here)', () => {
    // Issue 27, item 8: each PAT carries a rate-limit budget of its own; without a bound they multiply.
    it(
      'refuses one more with 403 QUOTA_EXCEEDED naming the bound, mails nothing ' +
        'for it, and frees a place when one expires or is revoked',
      async () => {
        const ada = await createAccount(t);
        const made = [];
        for (let i = 0; i < 3; i++) made.push((await create(ada.accessToken, { name: `t${i}` })).body.data.id);
        const refused = await create(ada.accessToken, { name: 'one too many' });
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({
          status: 403,
          code: 'QUOTA_EXCEEDED',
          message: expect.stringContaining('revoke one'),
          meta: { limit: { resource: 'personalAccessTokens', used: 3, limit: 3 } },
        });
        expect(noticesTo(ada.email)).toHaveLength(3);
        await t.dataSource.query(`UPDATE personal_access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [made[0]]);
        expect((await create(ada.accessToken, { name: 'after an expiry' })).status).toBe(200);
        expect((await create(ada.accessToken)).status).toBe(403);
        expect((await t.request('DELETE', `/user/tokens/${made[1]}`, { token: ada.accessToken })).status).toBe(200);
        expect((await create(ada.accessToken, { name: 'after a revocation' })).status).toBe(200);
      },
    );

    it('lets exactly the bound through when creations race, refusing the others with QUOTA_EXCEEDED and none with a 500', async () => {
      const ada = await createAccount(t);
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(ada.accessToken, { name: `racer ${i}` })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
      expect(answers.filter((a) => a.status === 403).every((a) => a.body.code === 'QUOTA_EXCEEDED')).toBe(true);
      expect(await activeIds(ada)).toHaveLength(3);
    });
  });

  describe('POST /user/tokens/revoke-all', () => {
    it('revokes every PAT of the account from a sign-in, leaving the session and other accounts’ PATs working', async () => {
      const [ada, bob] = [await createAccount(t), await createAccount(t)];
      const mine = [await createPat(t, ada, ['links:read']), await createPat(t, ada, ['links:read'])];
      const theirs = await createPat(t, bob, ['links:read']);
      const res = await t.request('POST', '/user/tokens/revoke-all', { token: ada.accessToken });
      expect(res.body).toEqual({ status: 200, code: 'OK', message: '2 tokens revoked', data: { revoked: 2, keptTokenId: null } });
      for (const pat of mine) expect(await works(pat.token)).toBe(false);
      expect(await works(ada.accessToken)).toBe(true);
      expect(await works(theirs.token)).toBe(true);
      expect(await activeIds(ada)).toEqual([]);
    });

    // Spec 3: the token used for a request cannot be revoked by it.
    it('spares the PAT making the request, and says which', async () => {
      const ada = await createAccount(t);
      const caller = await createPat(t, ada, ['tokens:delete', 'links:read']);
      const other = await createPat(t, ada, ['links:read']);
      const res = await t.request('POST', '/user/tokens/revoke-all', { token: caller.token });
      expect(res.body.data).toEqual({ revoked: 1, keptTokenId: caller.id });
      expect(await works(caller.token)).toBe(true);
      expect(await works(other.token)).toBe(false);
    });

    it('works for an account without a password (identity provider only), asking for none', async () => {
      const only = await idpAccount('idp-revoker');
      const pat = await create(only.accessToken);
      const res = await t.request('POST', '/user/tokens/revoke-all', { token: only.accessToken });
      expect(res.body.data).toEqual({ revoked: 1, keptTokenId: null });
      expect(await works(pat.body.data.token)).toBe(false);
    });
  });
});
