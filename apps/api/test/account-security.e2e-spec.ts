import speakeasy from 'speakeasy';
import { createAccount, createFirstPartyClient, createPat, identityOf, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { startTestIdp, type TestIdp } from './support/test-idp';

/**
 * Sensitive account actions need a fresh sign-in or the password, two-factor enrolment needs a code
 * before it is in force, a TOTP code is accepted once, and guesses at the password or a code through
 * the account routes count with the login throttle (issue 11, items 3, 7, 15 and 19).
 */
describe('sensitive account actions over HTTP', () => {
  let t: TestApp;
  // An identity provider of the test's own, for accounts that have no password.
  let idp: TestIdp;

  beforeAll(async () => {
    idp = await startTestIdp();
    t = await startTestApp({ env: { IDP_PROVIDERS: idp.providers } });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  /** Moves the account's sign-ins eleven minutes into the past, as if the tokens had been taken a while ago. */
  async function makeStale(account: TestAccount): Promise<void> {
    await t.dataSource.query(`UPDATE oauth_tokens SET auth_time = auth_time - interval '11 minutes' WHERE user_id = $1`, [account.id]);
    identityOf(t).principalCache.tokensRevoked(); // the principal cache holds the sign-in time too
  }

  const signIn = (account: TestAccount, extra: Record<string, string> = {}) =>
    t.request('POST', '/oauth/token', {
      body: {
        grant_type: 'password',
        client_id: account.client.clientId,
        client_secret: account.client.clientSecret,
        username: account.email,
        password: account.password,
        ...extra,
      },
    });

  /** The TOTP code of the step `steps` from now. */
  const totp = (secret: string, steps = 0) =>
    speakeasy.totp({ secret, encoding: 'base32', time: Math.floor(Date.now() / 1000) + steps * 30 });

  const expectReauthentication = (res: { status: number; body: { code: string; message: string } }) => {
    expect([res.status, res.body.code]).toEqual([403, 'REAUTHENTICATION_REQUIRED']);
    expect(res.body.message).toContain('currentPassword');
  };

  describe('a token whose sign-in is older than 10 minutes (a leaked or forgotten session)', () => {
    it('cannot change the e-mail address (the first step of a takeover), and changes nothing', async () => {
      const ada = await createAccount(t);
      await makeStale(ada);
      expectReauthentication(
        await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: `taken-${ada.id}@example.com` } }),
      );
      const [row] = await t.dataSource.query('SELECT email FROM users WHERE id = $1', [ada.id]);
      expect(row.email).toBe(ada.email);
      const wrong = await t.request('PUT', '/user/me/email', {
        token: ada.accessToken,
        body: { email: `taken-${ada.id}@example.com`, currentPassword: 'not the password' },
      });
      expect([wrong.status, wrong.body.meta.errors[0].name]).toEqual([400, 'currentPassword']);
      const right = await t.request('PUT', '/user/me/email', {
        token: ada.accessToken,
        body: { email: `moved-${ada.id}@example.com`, currentPassword: ada.password },
      });
      expect(right.status).toBe(200);
    });

    it('cannot turn two-factor sign-in on (locking the owner out) or off (stripping the second factor) without the password', async () => {
      const ada = await createAccount(t);
      await makeStale(ada);
      expectReauthentication(await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: true } }));
      const on = await t.request('POST', '/user/me/enable-twofactor', {
        token: ada.accessToken,
        body: { enable: true, currentPassword: ada.password },
      });
      expect(on.status).toBe(200);
      // The code itself proves the authenticator holds the secret only the caller above was shown.
      expect(
        (await t.request('POST', '/user/me/twofactor/confirm', { token: ada.accessToken, body: { code: totp(on.body.data.secret) } }))
          .status,
      ).toBe(200);

      expectReauthentication(
        await t.request('POST', '/user/me/enable-twofactor', {
          token: ada.accessToken,
          body: { enable: false, code: on.body.data.backupCodes[0] },
        }),
      );
      const off = await t.request('POST', '/user/me/enable-twofactor', {
        token: ada.accessToken,
        body: { enable: false, code: on.body.data.backupCodes[0], currentPassword: ada.password },
      });
      expect(off.body.data).toEqual({ isTwoFactorEnabled: false });
    });

    it('cannot delete the account; the current password in a DELETE body can', async () => {
      const ada = await createAccount(t);
      await makeStale(ada);
      expectReauthentication(await t.request('DELETE', '/user/me', { token: ada.accessToken }));
      expectReauthentication(await t.request('DELETE', '/user/me', { token: ada.accessToken, body: {} }));
      expect((await t.request('GET', '/user/me', { token: ada.accessToken })).status).toBe(200);
      const wrong = await t.request('DELETE', '/user/me', { token: ada.accessToken, body: { currentPassword: 'not the password' } });
      expect([wrong.status, wrong.body.meta.errors[0].name]).toEqual([400, 'currentPassword']);
      const deleted = await t.request('DELETE', '/user/me', { token: ada.accessToken, body: { currentPassword: ada.password } });
      expect(deleted.body.data).toEqual({ deletedAt: expect.any(String) });
      expect((await t.request('GET', '/user/me', { token: ada.accessToken })).status).toBe(401);
    });

    it('stays stale when refreshed: refreshing is not signing in', async () => {
      const ada = await createAccount(t);
      await makeStale(ada);
      const refreshed = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'refresh_token',
          client_id: ada.client.clientId,
          client_secret: ada.client.clientSecret,
          refresh_token: ada.refreshToken,
        },
      });
      expect(refreshed.status).toBe(200);
      expectReauthentication(await t.request('DELETE', '/user/me', { token: refreshed.body.data.access_token }));
    });
  });

  it('lets a token from a password sign-in in the last 10 minutes act without the password (a DELETE without a body)', async () => {
    const ada = await createAccount(t);
    expect((await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: true } })).status).toBe(200);
    const deleted = await t.request('DELETE', '/user/me', { token: ada.accessToken });
    expect(deleted.body.data).toEqual({ deletedAt: expect.any(String) });
  });

  it(
    'never counts a token an app got through the authorization-code flow as ' + 'a sign-in, though the user typed the password on the page',
    async () => {
      const ada = await createAccount(t);
      const redirectUri = 'https://app.example.com/cb';
      const made = await t.request('POST', '/user/oauth-clients', {
        token: ada.accessToken,
        body: { name: 'Some app', scopes: ['user:read', 'user:write'], redirectUris: [redirectUri] },
      });
      const app = made.body.data;
      const page = await (
        await fetch(
          `${t.baseUrl}/oauth/authorize/page?response_type=code&client_id=${app.clientId}` +
            `&redirect_uri=${encodeURIComponent(redirectUri)}&scope=user:write`,
        )
      ).text();
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
      const approved = await fetch(`${t.baseUrl}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          request: field('request'),
          signature: field('signature'),
          email: ada.email,
          password: ada.password,
          decision: 'approve',
        }).toString(),
      });
      const code = new URL(approved.headers.get('location') as string).searchParams.get('code') as string;
      const exchanged = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'authorization_code',
          client_id: app.clientId,
          client_secret: app.clientSecret,
          code,
          redirect_uri: redirectUri,
        },
      });
      expect(exchanged.status).toBe(200);
      expectReauthentication(await t.request('DELETE', '/user/me', { token: exchanged.body.data.access_token }));
    },
  );

  it(
    'tells an account without a password (identity provider only) to sign in ' +
      'again with its provider, and takes a fresh provider sign-in',
    async () => {
      const clientId = (await createFirstPartyClient(t)).clientId;
      const idToken = () => idp.idToken({ email: 'only.idp@example.com', email_verified: true, name: 'Only IdP' }, { sub: 'idp-only-1' });
      const signedIn = await t.request('POST', '/oauth/idp', { body: { token: await idToken(), client_id: clientId } });
      expect(signedIn.status).toBe(200);
      const token = signedIn.body.data.access_token;
      await t.dataSource.query(`UPDATE oauth_tokens SET auth_time = auth_time - interval '11 minutes' WHERE user_id = $1`, [
        signedIn.body.data.user.id,
      ]);
      identityOf(t).principalCache.tokensRevoked();
      for (const body of [undefined, { currentPassword: 'a guess' }]) {
        const refused = await t.request('DELETE', '/user/me', { token, ...(body ? { body } : {}) });
        expect([refused.status, refused.body.code]).toEqual([403, 'REAUTHENTICATION_REQUIRED']);
        expect(refused.body.message).toContain('identity provider');
      }
      const again = await t.request('POST', '/oauth/idp', { body: { token: await idToken(), client_id: clientId } });
      expect((await t.request('DELETE', '/user/me', { token: again.body.data.access_token })).status).toBe(200);
    },
  );

  it('never counts a personal access token as a sign-in: a user:write PAT cannot delete the account without the password', async () => {
    const ada = await createAccount(t);
    const pat = await createPat(t, ada, ['user:write', 'user:read']);
    expectReauthentication(await t.request('DELETE', '/user/me', { token: pat.token }));
    expectReauthentication(await t.request('PUT', '/user/me/email', { token: pat.token, body: { email: `pat-${ada.id}@example.com` } }));
    expect((await t.request('GET', '/user/me', { token: pat.token })).body.data.email).toBe(ada.email);
    expect((await t.request('DELETE', '/user/me', { token: pat.token, body: { currentPassword: ada.password } })).status).toBe(200);
  });

  describe('two-factor enrolment and one-time codes', () => {
    it('is not in force until a code confirms it: sign-in does not ask, a wrong code is refused, the right one turns it on', async () => {
      const ada = await createAccount(t);
      const on = await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: true } });
      expect((await signIn(ada)).status).toBe(200);
      const [row] = await t.dataSource.query('SELECT two_factor_secret, two_factor_pending_secret FROM users WHERE id = $1', [ada.id]);
      expect(row.two_factor_secret).toBeNull();
      expect(row.two_factor_pending_secret).not.toContain(on.body.data.secret); // sealed, never plain

      const wrong = await t.request('POST', '/user/me/twofactor/confirm', {
        token: ada.accessToken,
        body: { code: totp(on.body.data.secret) === '000000' ? '111111' : '000000' },
      });
      expect([wrong.status, wrong.body.meta.errors[0].name]).toEqual([400, 'code']);
      // A backup code is no proof that the authenticator app holds the secret.
      expect(
        (await t.request('POST', '/user/me/twofactor/confirm', { token: ada.accessToken, body: { code: on.body.data.backupCodes[0] } }))
          .status,
      ).toBe(400);
      expect((await signIn(ada)).status).toBe(200);

      const confirmed = await t.request('POST', '/user/me/twofactor/confirm', {
        token: ada.accessToken,
        body: { code: totp(on.body.data.secret) },
      });
      expect(confirmed.body).toMatchObject({ status: 200, data: { isTwoFactorEnabled: true } });
      expect((await signIn(ada)).body.code).toBe('TWO_FACTOR_REQUIRED');
      expect(
        (await t.request('POST', '/user/me/twofactor/confirm', { token: ada.accessToken, body: { code: totp(on.body.data.secret, 1) } }))
          .status,
      ).toBe(400);
    });

    it('puts only the latest enrolment in force: a second one replaces the first', async () => {
      const ada = await createAccount(t);
      const first = await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: true } });
      const second = await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: true } });
      expect(second.body.data.secret).not.toBe(first.body.data.secret);
      expect(
        (await t.request('POST', '/user/me/twofactor/confirm', { token: ada.accessToken, body: { code: totp(first.body.data.secret) } }))
          .status,
      ).toBe(400);
      expect(
        (await t.request('POST', '/user/me/twofactor/confirm', { token: ada.accessToken, body: { code: totp(second.body.data.secret) } }))
          .status,
      ).toBe(200);
    });

    it(
      'accepts a TOTP code once (a code seen over a shoulder or in a log cannot ' +
        'be replayed in its 30 seconds), also when sent twice at once',
      async () => {
        const ada = await createAccount(t);
        const on = await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: true } });
        const secret = on.body.data.secret;
        // Both made now, so a step boundary passing during the test changes neither.
        const [current, next] = [totp(secret), totp(secret, 1)];
        expect((await t.request('POST', '/user/me/twofactor/confirm', { token: ada.accessToken, body: { code: current } })).status).toBe(
          200,
        );
        // The code that confirmed the enrolment is used up.
        const replayed = await signIn(ada, { otp: current });
        expect([replayed.status, replayed.body.code]).toEqual([400, 'INVALID_GRANT']);

        const racing = await Promise.all([signIn(ada, { otp: next }), signIn(ada, { otp: next })]);
        expect(racing.map((r) => r.status).sort()).toEqual([200, 400]);
        expect((await signIn(ada, { otp: next })).status).toBe(400);
        // Nor can an older code come back once a later one was used.
        expect((await signIn(ada, { otp: current })).status).toBe(400);
      },
    );
  });

  it('revokes every personal access token of the account on a password change, and says so', async () => {
    const ada = await createAccount(t);
    const pat = await createPat(t, ada, ['user:read']);
    expect((await t.request('GET', '/user/me', { token: pat.token })).status).toBe(200);
    const changed = await t.request('PUT', '/user/me/password', {
      token: ada.accessToken,
      body: { currentPassword: ada.password, newPassword: 'a brand new passphrase' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toContain('personal access tokens were revoked');
    expect((await t.request('GET', '/user/me', { token: pat.token })).status).toBe(401);
    expect((await t.request('GET', '/user/me', { token: ada.accessToken })).status).toBe(200);
  });

  // Last: these leave failures counted against the test's one address.
  describe('guesses through the account routes count with the login throttle', () => {
    it(
      'answers some of 25 parallel wrong current passwords on PUT ' +
        '/user/me/password with 429 (a stolen token is no way to guess the password)',
      async () => {
        const ada = await createAccount(t);
        const answers = await Promise.all(
          Array.from({ length: 25 }, (_, i) =>
            t.request('PUT', '/user/me/password', {
              token: ada.accessToken,
              body: { currentPassword: `wrong guess ${i}`, newPassword: 'a brand new passphrase' },
            }),
          ),
        );
        const statuses = answers.map((r) => r.status);
        expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
        expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
        expect(answers.find((r) => r.status === 429)?.headers.get('retry-after')).toMatch(/^\d+$/);
      },
    );

    it('answers some of 25 parallel wrong codes on two-factor disable with 429 (a fresh token is no way to guess the code)', async () => {
      const ada = await createAccount(t);
      const on = await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: true } });
      expect(
        (await t.request('POST', '/user/me/twofactor/confirm', { token: ada.accessToken, body: { code: totp(on.body.data.secret) } }))
          .status,
      ).toBe(200);
      const real = new Set([-1, 0, 1, 2].map((s) => totp(on.body.data.secret, s)));
      const guesses = Array.from({ length: 40 }, (_, i) => String(100000 + i * 7919))
        .filter((c) => !real.has(c))
        .slice(0, 25);
      const answers = await Promise.all(
        guesses.map((code) => t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: false, code } })),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    });
  });
});
