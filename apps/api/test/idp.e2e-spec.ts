import { type CryptoKey, generateKeyPair } from 'jose';
import speakeasy from 'speakeasy';
import { createAccount, createFirstPartyClient, createPat, identityOf } from './support/identity';
import { startSmtpServer } from './support/smtp-server';
import { startTestApp, TestApp } from './support/test-app';
import { type IdTokenOptions, startTestIdp, type TestIdp } from './support/test-idp';

describe('POST /oauth/idp: sign-in with an OpenID Connect ID token', () => {
  let idp: TestIdp;
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let clientId: string;
  let clientSecret: string;

  beforeAll(async () => {
    idp = await startTestIdp();
    smtp = await startSmtpServer();
    t = await startTestApp({ env: { IDP_PROVIDERS: idp.providers, SMTP_URL: smtp.url } });
    const operator = await identityOf(t).registerUser.execute({ email: 'operator@example.com', password: 'operator password' });
    ({ clientId, clientSecret } = await createFirstPartyClient(t, operator.id));
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await idp?.close();
  });

  const idToken = (claims: Record<string, unknown>, options: Partial<IdTokenOptions> = {}) =>
    idp.idToken(
      { email: 'New.Person@Example.com', email_verified: true, name: 'New Person', ...claims },
      { sub: 'idp-user-1', ...options },
    );

  it('creates a verified account on first sign-in and signs the same account in again', async () => {
    const first = await t.request('POST', '/oauth/idp', { body: { token: await idToken({}), client_id: clientId } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      user: { email: 'new.person@example.com', name: 'New Person' },
    });
    expect(first.body.data).not.toHaveProperty('limits');
    const me = await t.request('GET', '/user/me', { token: first.body.data.access_token });
    expect(me.body.data).toMatchObject({ email: 'new.person@example.com', isVerified: true });
    const second = await t.request('POST', '/oauth/idp', { body: { token: await idToken({}), client_id: clientId } });
    expect(second.body.data.user.id).toBe(first.body.data.user.id);
  });

  it.each([
    ['signed by another key', async () => idToken({}, { key: (await generateKeyPair('RS256')).privateKey as CryptoKey })],
    ['expired', async () => idToken({}, { exp: Math.floor(Date.now() / 1000) - 3600 })],
    ['for another audience', async () => idToken({}, { aud: 'someone-else' })],
    ['from an unknown issuer', async () => idToken({}, { iss: 'https://evil.test' })],
    ['with an unverified e-mail', async () => idToken({ email_verified: false })],
    ['that is not a JWT', async () => 'not-a-token'],
  ])('refuses a token %s with 401', async (_what, make) => {
    const res = await t.request('POST', '/oauth/idp', { body: { token: await make(), client_id: clientId } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('refuses an unknown client', async () => {
    const res = await t.request('POST', '/oauth/idp', { body: { token: await idToken({}), client_id: 'cl_unknown' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CLIENT');
  });

  describe('which account an identity-provider sign-in enters (issue 11: account takeover through an e-mail change)', () => {
    const signIn = async (email: string, sub: string, extra: Record<string, string> = {}) =>
      t.request('POST', '/oauth/idp', {
        body: { token: await idToken({ email, name: 'Someone' }, { sub }), client_id: clientId, ...extra },
      });
    const passwordSignIn = (username: string, password: string) =>
      t.request('POST', '/oauth/token', {
        body: { grant_type: 'password', client_id: clientId, client_secret: clientSecret, username, password },
      });
    /** The verification token in the last link mailed to `address`. */
    const linkTo = (address: string) => {
      const raw = smtp.messages
        .filter((m) => m.to.includes(address))
        .map((m) => m.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))));
      return raw
        .map((r) => /verify-email\?token=([A-Za-z0-9_-]+)/.exec(r)?.[1])
        .filter(Boolean)
        .pop();
    };

    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

    // The new address is stored at once (spec 3), but unverified it reserves nothing against the provider's verified owner.
    it(
      "a user:write token that moves an account to the victim's address gains nothing: " +
        "the victim's first IdP sign-in gets a new account, not the attacker's",
      async () => {
        const attacker = await createAccount(t);
        const narrow = await createPat(t, attacker, ['user:write']);
        const changed = await t.request('PUT', '/user/me/email', {
          token: narrow.token,
          body: { email: 'Victim@Example.org', currentPassword: attacker.password },
        });
        expect(changed.status).toBe(200);
        expect(changed.body.data).toMatchObject({ id: attacker.id, email: 'victim@example.org', isVerified: false });
        expect((await passwordSignIn('victim@example.org', attacker.password)).status).toBe(200);

        const victim = await signIn('victim@example.org', 'victim-subject');
        expect(victim.status).toBe(200);
        expect(victim.body.data.user.id).not.toBe(attacker.id);
        const victimMe = await t.request('GET', '/user/me', { token: victim.body.data.access_token });
        expect(victimMe.body.data).toMatchObject({ id: victim.body.data.user.id, email: 'victim@example.org', isVerified: true });
        // The attacker's account lost the address; the link mailed to the victim can no longer hand it over.
        const attackerMe = await t.request('GET', '/user/me', { token: attacker.accessToken });
        expect(attackerMe.body.data.email).toMatch(/^released-[0-9a-f]{24}@invalid$/);
        expect((await passwordSignIn('victim@example.org', attacker.password)).status).toBe(400);
        const link = linkTo('victim@example.org');
        expect(link).toBeDefined();
        expect((await t.request('POST', '/auth/verify-email', { body: { token: link } })).status).toBe(400);
        expect((await signIn('victim@example.org', 'victim-subject')).body.data.user.id).toBe(victim.body.data.user.id);
      },
    );

    // Issue 27, item 2: the link was a GET, so the victim's mail scanner confirmed the attacker's claim, and the
    // victim's first provider sign-in then entered the attacker's (verified) account.
    it(
      "an IdP-made account that takes the victim's address gets nothing from the victim's " +
        "mail scanner: the victim's first IdP sign-in gets an account of their own",
      async () => {
        const attacker = await signIn('attacker@idp-made.example.org', 'attacker-subject');
        expect(attacker.status).toBe(200);
        const attackerToken = attacker.body.data.access_token;
        const changed = await t.request('PUT', '/user/me/email', { token: attackerToken, body: { email: 'scanned.victim@example.org' } });
        expect(changed.body.data).toMatchObject({ email: 'scanned.victim@example.org', isVerified: false });

        const link = linkTo('scanned.victim@example.org');
        expect(link).toBeDefined();
        for (const method of ['HEAD', 'GET'])
          for (const headers of [browser, {}]) await t.request(method, `/auth/verify-email?token=${link}`, { headers });
        expect((await t.request('GET', '/user/me', { token: attackerToken })).body.data).toMatchObject({
          email: 'scanned.victim@example.org',
          isVerified: false,
        });

        const victim = await signIn('scanned.victim@example.org', 'scanned-victim-subject');
        expect(victim.status).toBe(200);
        expect(victim.body.data.user.id).not.toBe(attacker.body.data.user.id);
        expect((await t.request('GET', '/user/me', { token: victim.body.data.access_token })).body.data).toMatchObject({
          email: 'scanned.victim@example.org',
          isVerified: true,
        });
        expect((await t.request('GET', '/user/me', { token: attackerToken })).body.data.email).toMatch(/^released-[0-9a-f]{24}@invalid$/);
      },
    );

    // Issue 27, item 2: even a confirmed change (a victim talked into pressing Confirm) must not catch the
    // victim's provider sign-in; the account's own provider identity still enters it.
    it(
      'never joins an IdP sign-in to an account whose address came from a change, ' +
        'even once confirmed: the newcomer is refused, and nothing is linked',
      async () => {
        const attacker = await signIn('attacker2@idp-made.example.org', 'attacker2-subject');
        const attackerId = attacker.body.data.user.id;
        await t.request('PUT', '/user/me/email', { token: attacker.body.data.access_token, body: { email: 'tricked.victim@example.org' } });
        const confirmed = await t.request('POST', '/auth/verify-email', { body: { token: linkTo('tricked.victim@example.org') } });
        expect(confirmed.body.data).toEqual({ id: attackerId, email: 'tricked.victim@example.org', isVerified: true });

        const victim = await signIn('tricked.victim@example.org', 'tricked-victim-subject');
        expect([victim.status, victim.body.code]).toEqual([401, 'UNAUTHORIZED']);
        expect(victim.body.message).toContain('sign in to it with its password');
        expect(victim.body.data).toBeUndefined();
        const links = await t.dataSource.query(`SELECT user_id FROM idp_identities WHERE subject = 'tricked-victim-subject'`);
        expect(links).toEqual([]);
        expect((await signIn('tricked.victim@example.org', 'tricked-victim-subject')).status).toBe(401);
        // Linked by (issuer, subject), the account's own provider identity enters it whatever its address.
        expect((await signIn('attacker2@idp-made.example.org', 'attacker2-subject')).body.data.user.id).toBe(attackerId);
      },
    );

    it(
      'never enters an account holding the address unverified: that ' + 'account loses the address to the provider-verified owner',
      async () => {
        const squatter = await createAccount(t, { email: 'owner@squatted.example.org' });
        const owner = await signIn('owner@squatted.example.org', 'owner-subject');
        expect(owner.status).toBe(200);
        expect(owner.body.data.user.id).not.toBe(squatter.id);
        expect((await t.request('GET', '/user/me', { token: owner.body.data.access_token })).body.data).toMatchObject({
          email: 'owner@squatted.example.org',
          isVerified: true,
        });
        const squatterMe = await t.request('GET', '/user/me', { token: squatter.accessToken });
        expect(squatterMe.body.data.email).toMatch(/^released-[0-9a-f]{24}@invalid$/);
        expect(squatterMe.body.data.isVerified).toBe(false);
        expect((await passwordSignIn('owner@squatted.example.org', squatter.password)).status).toBe(400);
      },
    );

    it(
      'enters the account that verified the address, and afterwards follows the ' +
        'provider account (issuer, subject) when its e-mail claim changes',
      async () => {
        const ada = await createAccount(t, { email: 'ada@verified.example.org', verified: true });
        const first = await signIn('ada@verified.example.org', 'ada-subject');
        expect(first.body.data.user.id).toBe(ada.id);
        const renamed = await signIn('ada.renamed@elsewhere.example.org', 'ada-subject');
        expect(renamed.status).toBe(200);
        expect(renamed.body.data.user.id).toBe(ada.id);
        const [{ count }] = await t.dataSource.query(
          `SELECT count(*)::int AS count FROM users WHERE email = 'ada.renamed@elsewhere.example.org'`,
        );
        expect(count).toBe(0);
      },
    );

    it('asks an account with two-factor sign-in for its code (otp), as the password grant does: an ID token is one factor', async () => {
      const bea = await createAccount(t, { email: 'bea@twofactor.example.org', verified: true });
      const on = await t.request('POST', '/user/me/enable-twofactor', { token: bea.accessToken, body: { enable: true } });
      const code = speakeasy.totp({ secret: on.body.data.secret, encoding: 'base32' });
      expect((await t.request('POST', '/user/me/twofactor/confirm', { token: bea.accessToken, body: { code } })).body.data).toEqual({
        isTwoFactorEnabled: true,
      });

      const without = await signIn('bea@twofactor.example.org', 'bea-subject');
      expect(without.status).toBe(401);
      expect(without.body.code).toBe('TWO_FACTOR_REQUIRED');
      const wrong = await signIn('bea@twofactor.example.org', 'bea-subject', { otp: '000000' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe('INVALID_GRANT');
      const right = await signIn('bea@twofactor.example.org', 'bea-subject', { otp: on.body.data.backupCodes[0] });
      expect(right.status).toBe(200);
      expect(right.body.data.user.id).toBe(bea.id);
      // Linked now, and still a second factor each time.
      expect((await signIn('bea@twofactor.example.org', 'bea-subject')).body.code).toBe('TWO_FACTOR_REQUIRED');
      // The request schema clients read says so.
      const schema = (await t.request('GET', '/openapi.json')).body.components.schemas.IdpRequestDto;
      expect(schema.properties.otp).toMatchObject({ type: 'string', maxLength: 64 });
      expect(schema.required).not.toContain('otp');
    });
  });
});
