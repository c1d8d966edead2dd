import speakeasy from 'speakeasy';
import { createAccount, createFirstPartyClient, createPat, TestAccount } from './support/identity';
import { startSmtpServer } from './support/smtp-server';
import { startTestApp, TestApp } from './support/test-app';

describe('the account, personal access tokens and OAuth clients over HTTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // The limits GET /user/me/limits is checked against below.
    t = await startTestApp({ env: { SMTP_URL: smtp.url, DEFAULT_MAX_DOMAINS: '1', DEFAULT_MAX_LINKS: '100', DEFAULT_MAX_TAGS: '10' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const signIn = (account: TestAccount, extra: Record<string, string> = {}, password = account.password) =>
    t.request('POST', '/oauth/token', {
      body: {
        grant_type: 'password',
        client_id: account.client.clientId,
        client_secret: account.client.clientSecret,
        username: account.email,
        password,
        ...extra,
      },
    });

  describe('/user/me', () => {
    it('shows the account', async () => {
      const ada = await createAccount(t);
      const res = await t.request('GET', '/user/me', { token: ada.accessToken });
      expect(res.body.data).toEqual({
        id: ada.id,
        email: ada.email,
        name: 'Test User',
        isVerified: false,
        isActive: true,
        createdAt: expect.stringMatching(/Z$/),
      });
    });

    /** Mail bodies travel quoted-printable: undo soft line breaks and =XX escapes before reading them. */
    const mailsTo = (address: string) =>
      smtp.messages
        .filter((m) => m.to.includes(address))
        .map((m) => m.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))));
    const linkIn = (body: string | undefined) => /verify-email\?token=([A-Za-z0-9_-]+)/.exec(body ?? '')?.[1];

    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const FORM = 'application/x-www-form-urlencoded';
    /** What a person's browser does with the page's form: posts its fields, form-encoded, to its action. */
    const submitForm = async (pageUrl: string, html: string) => {
      const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
      const fields = Object.fromEntries(
        [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
      );
      if (!action) throw new Error(`no form in ${html}`);
      const target = new URL(action, t.baseUrl + pageUrl);
      return t.request('POST', target.pathname + target.search, {
        headers: browser,
        raw: { body: new URLSearchParams(fields).toString(), contentType: FORM },
      });
    };
    const me = async (account: TestAccount) => (await t.request('GET', '/user/me', { token: account.accessToken })).body.data;

    // Issue 27 (spec 3 and 4.3): the new address is stored at once, unverified, and is the sign-in name from then on.
    it(
      'changes the e-mail: the new address is stored unverified and signs in at once (the ' +
        'old one no longer), the old address is told, and the link confirms it',
      async () => {
        const ada = await createAccount(t);
        expect(
          (await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: 'not-an-address' } })).body.meta.errors[0]
            .name,
        ).toBe('email');

        const newEmail = `new-${ada.id}@example.com`;
        const changed = await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: newEmail.toUpperCase() } });
        expect(changed.body.data).toEqual({ id: ada.id, email: newEmail, isVerified: false, updatedAt: expect.any(String) });
        expect(await me(ada)).toMatchObject({ email: newEmail, isVerified: false });
        const [row] = await t.dataSource.query('SELECT email, is_verified FROM users WHERE id = $1', [ada.id]);
        expect(row).toEqual({ email: newEmail, is_verified: false });
        expect((await signIn({ ...ada, email: newEmail })).status).toBe(200);
        const old = await signIn(ada);
        expect([old.status, old.body.code]).toEqual([400, 'INVALID_GRANT']);
        // The old address hears of it, without the new address in full.
        const notice = mailsTo(ada.email).filter((m) => m.includes('The e-mail address of your account was changed'));
        expect(notice).toHaveLength(1);
        expect(notice[0]).toContain('n***@e***.com');
        expect(notice[0]).not.toContain(newEmail);
        // The new address is asked, and told how to refuse.
        const asked = mailsTo(newEmail);
        expect(asked).toHaveLength(1);
        expect(asked[0]).toContain('An account asked to use this address');
        expect(asked[0]).toContain('If it was not you, ignore this message');

        const token = linkIn(asked[0]);
        expect(token).toBeDefined();
        const confirmed = await t.request('POST', '/auth/verify-email', { body: { token } });
        expect(confirmed.body.data).toEqual({ id: ada.id, email: newEmail, isVerified: true });
        expect((await t.request('POST', '/auth/verify-email', { body: { token } })).status).toBe(400);
        expect(await me(ada)).toMatchObject({ email: newEmail, isVerified: true });
        expect((await signIn({ ...ada, email: newEmail })).status).toBe(200);
      },
    );

    // Issue 27, item 2: the link was a GET, so a mail scanner fetching it confirmed the address for whoever asked for it.
    it(
      'changes nothing on a HEAD or GET of the link (a mail scanner): the ' + 'page it opens confirms only when its form is posted',
      async () => {
        const ada = await createAccount(t);
        const newEmail = `page-${ada.id}@example.com`;
        await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: newEmail } });
        const token = linkIn(mailsTo(newEmail)[0]);
        expect(token).toBeDefined();
        const url = `/auth/verify-email?token=${token}`;

        for (const headers of [browser, {}, { accept: 'application/json' }]) {
          expect((await t.request('HEAD', url, { headers })).status).toBe(200);
          expect((await t.request('GET', url, { headers })).status).toBe(200);
        }
        expect(await me(ada)).toMatchObject({ email: newEmail, isVerified: false });
        const [stored] = await t.dataSource.query('SELECT is_verified FROM users WHERE id = $1', [ada.id]);
        expect(stored.is_verified).toBe(false);
        // An API client reading the link is told what it would confirm.
        expect((await t.request('GET', url)).body.data).toEqual({ id: ada.id, email: newEmail, isVerified: false });

        const page = await t.request('GET', url, { headers: browser });
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        const csp = page.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("default-src 'none'");
        expect(csp).toContain("form-action 'self'");
        expect(csp).not.toMatch(/script-src/);
        expect(page.text).not.toMatch(/<script|\son\w+=/i);
        expect(page.text).toContain(newEmail);
        expect(page.text).toContain('If it was not you');

        const posted = await submitForm(url, page.text);
        expect(posted.status).toBe(200);
        expect(posted.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(posted.text).toContain('E-mail address confirmed');
        expect(await me(ada)).toMatchObject({ email: newEmail, isVerified: true });

        const reused = await submitForm(url, page.text);
        expect(reused.status).toBe(400);
        expect(reused.text).toContain('invalid, used or expired');
        const reopened = await t.request('GET', url, { headers: browser });
        expect([reopened.status, reopened.text.includes('invalid, used or expired'), reopened.text.includes('<form')]).toEqual([
          400,
          true,
          false,
        ]);
        const json = await t.request('GET', url, { headers: { accept: 'application/json' } });
        expect([json.status, json.body.code, json.body.meta.errors[0].name]).toEqual([400, 'VALIDATION_ERROR', 'token']);
      },
    );

    // Issue 27 (d): a link must prove the mailbox of the address the account has now, not of one it left.
    it('confirms nothing with the link of an address the account has since changed away from, even after it changes back', async () => {
      const ada = await createAccount(t);
      const first = `first-${ada.id}@example.com`;
      const second = `second-${ada.id}@example.com`;
      await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: first } });
      const left = linkIn(mailsTo(first)[0]);
      await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: second } });
      const stale = await t.request('POST', '/auth/verify-email', { body: { token: left } });
      expect([stale.status, stale.body.meta.errors[0].name]).toEqual([400, 'token']);
      expect((await t.request('GET', `/auth/verify-email?token=${left}`, { headers: browser })).status).toBe(400);
      expect(await me(ada)).toMatchObject({ email: second, isVerified: false });

      await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: first } });
      expect((await t.request('POST', '/auth/verify-email', { body: { token: left } })).status).toBe(400);
      expect(await me(ada)).toMatchObject({ email: first, isVerified: false });
      const fresh = linkIn(mailsTo(first).pop());
      expect(fresh).not.toBe(left);
      expect((await t.request('POST', '/auth/verify-email', { body: { token: fresh } })).body.data).toEqual({
        id: ada.id,
        email: first,
        isVerified: true,
      });
    });

    // Issue 27: an address another account uses is refused; an unverified holder keeps it against a mere
    // request (only proof, an identity provider's or the operator's, takes it; see idp.e2e-spec.ts).
    it(
      'refuses an address another account uses, verified or not, with 400 ' + 'VALIDATION_ERROR on email, changing and mailing nothing',
      async () => {
        const bob = await createAccount(t, { verified: true });
        const carol = await createAccount(t);
        const ada = await createAccount(t);
        const mailed = smtp.messages.length;
        for (const holder of [bob, carol]) {
          const refused = await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: holder.email.toUpperCase() } });
          expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_ERROR']);
          expect(refused.body.meta.errors).toEqual([{ name: 'email', error: 'email is already used by another account' }]);
        }
        expect(smtp.messages.length).toBe(mailed);
        expect(await me(ada)).toMatchObject({ email: ada.email });
        expect(await me(bob)).toMatchObject({ email: bob.email, isVerified: true });
        expect(await me(carol)).toMatchObject({ email: carol.email, isVerified: false });
        expect((await signIn(bob)).status).toBe(200);
        expect((await signIn(carol)).status).toBe(200);
      },
    );

    // Issue 11: each request mails two addresses; unlimited, it was a way to mail anyone 600 times a minute.
    // Issue 27: refused requests count too, so the answer about a taken address is no bulk lookup.
    it(
      'limits e-mail changes to 5 an hour per account, refused ones included: the ' +
        'sixth is 429 RATE_LIMITED with Retry-After and mails no one',
      async () => {
        const bob = await createAccount(t);
        const ada = await createAccount(t);
        expect((await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: bob.email } })).status).toBe(400);
        for (let i = 1; i < 5; i++) {
          expect(
            (await t.request('PUT', '/user/me/email', { token: ada.accessToken, body: { email: `limit-${i}-${ada.id}@example.com` } }))
              .status,
          ).toBe(200);
        }
        const mailed = smtp.messages.length;
        const sixth = await t.request('PUT', '/user/me/email', {
          token: ada.accessToken,
          body: { email: `limit-5-${ada.id}@example.com` },
        });
        expect(sixth.status).toBe(429);
        expect(sixth.body.code).toBe('RATE_LIMITED');
        expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3000);
        expect(smtp.messages.length).toBe(mailed);
        expect(await me(ada)).toMatchObject({ email: `limit-4-${ada.id}@example.com` });
        // Another account is not held back by Ada's requests.
        const carol = await createAccount(t);
        expect(
          (await t.request('PUT', '/user/me/email', { token: carol.accessToken, body: { email: `other-${carol.id}@example.com` } })).status,
        ).toBe(200);
      },
    );

    it('changes the password after the current one, ending the other sessions but not this one', async () => {
      const ada = await createAccount(t);
      const other = await signIn(ada);
      const wrong = await t.request('PUT', '/user/me/password', {
        token: ada.accessToken,
        body: { currentPassword: 'nope', newPassword: 'a brand new one' },
      });
      expect(wrong.body.meta.errors[0].name).toBe('currentPassword');
      const weak = await t.request('PUT', '/user/me/password', {
        token: ada.accessToken,
        body: { currentPassword: ada.password, newPassword: 'short' },
      });
      expect(weak.body.meta.errors[0].name).toBe('newPassword');
      const done = await t.request('PUT', '/user/me/password', {
        token: ada.accessToken,
        body: { currentPassword: ada.password, newPassword: 'a brand new one' },
      });
      expect(done.body.data).toEqual({ id: ada.id, updatedAt: expect.any(String) });
      expect((await t.request('GET', '/user/me', { token: ada.accessToken })).status).toBe(200);
      const refresh = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'refresh_token',
          client_id: ada.client.clientId,
          client_secret: ada.client.clientSecret,
          refresh_token: other.body.data.refresh_token,
        },
      });
      expect(refresh.status).toBe(400);
      expect((await signIn(ada)).status).toBe(400);
      expect((await signIn(ada, {}, 'a brand new one')).status).toBe(200);
    });

    it(
      'enrols two-factor sign-in with a QR code and backup codes, puts it in force with ' +
        'a code, asks for a code at sign-in, and turns it off with a code',
      async () => {
        const ada = await createAccount(t);
        const on = await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: true } });
        expect(on.status).toBe(200);
        expect(on.body.data.qrCode).toMatch(/^data:image\/png;base64,/);
        expect(on.body.data.secret).toMatch(/^[A-Z2-7]+$/);
        expect(on.body.data.backupCodes).toHaveLength(10);
        expect(new Set(on.body.data.backupCodes).size).toBe(10);
        // Not in force until a code from the new secret confirms it (issue 11: an unconfirmed enrolment must not lock anyone out).
        expect((await signIn(ada)).status).toBe(200);
        const [current, next] = [0, 1].map((steps) =>
          speakeasy.totp({ secret: on.body.data.secret, encoding: 'base32', time: Math.floor(Date.now() / 1000) + steps * 30 }),
        );
        expect(
          (await t.request('POST', '/user/me/twofactor/confirm', { token: ada.accessToken, body: { code: current } })).body.data,
        ).toEqual({ isTwoFactorEnabled: true });
        expect((await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: true } })).status).toBe(400);

        const [stored] = await t.dataSource.query('SELECT two_factor_secret FROM users WHERE id = $1', [ada.id]);
        expect(stored.two_factor_secret).not.toContain(on.body.data.secret);

        const without = await signIn(ada);
        expect(without.status).toBe(401);
        expect(without.body.code).toBe('TWO_FACTOR_REQUIRED');
        // A code of the next step: the current one was used up by the confirmation.
        expect((await signIn(ada, { otp: next })).status).toBe(200);
        const backup = on.body.data.backupCodes[0];
        expect((await signIn(ada, { otp: backup })).status).toBe(200);
        const again = await signIn(ada, { otp: backup });
        expect(again.status).toBe(400);
        expect(again.body.code).toBe('INVALID_GRANT');

        const noCode = await t.request('POST', '/user/me/enable-twofactor', { token: ada.accessToken, body: { enable: false } });
        expect(noCode.body.meta.errors[0].name).toBe('code');
        const off = await t.request('POST', '/user/me/enable-twofactor', {
          token: ada.accessToken,
          body: { enable: false, code: on.body.data.backupCodes[1] },
        });
        expect(off.body.data).toEqual({ isTwoFactorEnabled: false });
        expect((await signIn(ada)).status).toBe(200);
      },
    );

    it('reports the limits of the account', async () => {
      const ada = await createAccount(t);
      const res = await t.request('GET', '/user/me/limits', { token: ada.accessToken });
      expect(res.body.data).toEqual({ domains: { used: 0, limit: 1 }, links: { used: 0, limit: 100 }, tags: { used: 0, limit: 10 } });
    });
  });

  describe('/user/tokens', () => {
    it('creates a PAT shown once, lists without values, shows the detail, and revokes it at once', async () => {
      const ada = await createAccount(t);
      const created = await t.request('POST', '/user/tokens', {
        token: ada.accessToken,
        body: { name: 'CI', description: 'deploys', scopes: ['user:read', 'links:read'] },
      });
      expect(created.body.data).toEqual({
        id: expect.any(String),
        name: 'CI',
        description: 'deploys',
        scopes: ['user:read', 'links:read'],
        token: expect.stringMatching(/^tkn_/),
        expiresAt: null,
        createdAt: expect.any(String),
      });
      const value = created.body.data.token;
      expect((await t.request('GET', '/user/me', { token: value })).status).toBe(200);
      const list = await t.request('GET', '/user/tokens', { token: ada.accessToken });
      expect(list.body.meta).toEqual({ total: 1, start: 0, limit: 10, nextCursor: null });
      expect(list.text).not.toContain(value);
      const detail = await t.request('GET', `/user/tokens/${created.body.data.id}`, { token: ada.accessToken });
      expect(detail.body.data).toMatchObject({
        isActive: true,
        isExpired: false,
        lastUsedAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await t.request('DELETE', `/user/tokens/${created.body.data.id}`, { token: ada.accessToken })).body).toEqual({
        status: 200,
        code: 'OK',
        message: 'Token revoked',
      });
      expect((await t.request('GET', '/user/me', { token: value })).status).toBe(401);
    });

    it('refuses scopes beyond the creating token, unknown scopes, long descriptions and past expiry', async () => {
      const ada = await createAccount(t);
      const narrow = await createPat(t, ada, ['tokens:write']);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ name: 'x', scopes: ['links:write'] }, narrow.token, 'scopes'],
        [{ name: 'x', scopes: ['root'] }, ada.accessToken, 'scopes'],
        [{ name: 'x', scopes: ['user:read'], description: 'd'.repeat(501) }, ada.accessToken, 'description'],
        [{ name: 'x', scopes: ['user:read'], expiresAt: '2020-01-01T00:00:00.000Z' }, ada.accessToken, 'expiresAt'],
      ];
      for (const [body, token, field] of cases) {
        const res = await t.request('POST', '/user/tokens', { token, body });
        expect(res.status).toBe(400);
        expect(res.body.meta.errors[0].name).toBe(field);
      }
    });

    it('will not let a PAT revoke itself, and hides other users’ tokens', async () => {
      const ada = await createAccount(t);
      const bob = await createAccount(t);
      const pat = await createPat(t, ada, ['tokens:delete', 'tokens:read']);
      const self = await t.request('DELETE', `/user/tokens/${pat.id}`, { token: pat.token });
      expect(self.status).toBe(400);
      expect(self.body.meta.errors).toEqual([{ name: 'id', error: expect.any(String) }]);
      expect((await t.request('GET', `/user/tokens/${pat.id}`, { token: bob.accessToken })).status).toBe(404);
      expect((await t.request('DELETE', `/user/tokens/${pat.id}`, { token: bob.accessToken })).status).toBe(404);
    });

    // A PAT must not outlive what made it: an expiring PAT could otherwise mint a never-expiring one.
    it('caps a PAT made by an expiring PAT at its parent’s expiry, and refuses a later one', async () => {
      const ada = await createAccount(t);
      const parentExpiry = new Date(Date.now() + 86_400_000).toISOString();
      const parent = await createPat(t, ada, ['tokens:write', 'user:read'], { expiresAt: parentExpiry });
      // A PAT is never a sign-in: minting with one takes the password.
      const child = await t.request('POST', '/user/tokens', {
        token: parent.token,
        body: { name: 'child', scopes: ['user:read'], currentPassword: ada.password },
      });
      expect(child.status).toBe(200);
      expect(child.body.data.expiresAt).toBe(parentExpiry);
      const later = await t.request('POST', '/user/tokens', {
        token: parent.token,
        body: {
          name: 'later',
          scopes: ['user:read'],
          currentPassword: ada.password,
          expiresAt: new Date(Date.parse(parentExpiry) + 3_600_000).toISOString(),
        },
      });
      expect(later.status).toBe(400);
      expect(later.body.meta.errors[0].name).toBe('expiresAt');
    });

    // Spec 2.4: a PAT does not expire unless expiresAt is set; the sign-in that made it does not bound it.
    it(
      'gives a PAT made through a sign-in no expiry unless one is asked for, ' +
        'and the one asked for even past that sign-in’s refresh token',
      async () => {
        const ada = await createAccount(t);
        const pat = await createPat(t, ada, ['user:read']);
        expect((await t.request('GET', `/user/tokens/${pat.id}`, { token: ada.accessToken })).body.data).toMatchObject({
          expiresAt: null,
          isExpired: false,
        });
        const session = await t.request('POST', '/oauth/introspect', {
          body: { token: ada.refreshToken, client_id: ada.client.clientId, client_secret: ada.client.clientSecret },
        });
        const later = new Date((session.body.data.exp + 86_400) * 1000).toISOString();
        const lasting = await createPat(t, ada, ['user:read'], { expiresAt: later });
        expect((await t.request('GET', `/user/tokens/${lasting.id}`, { token: ada.accessToken })).body.data.expiresAt).toBe(later);
      },
    );

    // A third-party app granted tokens:write would otherwise turn its revocable grant into a lasting PAT.
    it('refuses to let a third-party application’s token create a PAT', async () => {
      const ada = await createAccount(t);
      const app = await t.request('POST', '/user/oauth-clients', {
        token: ada.accessToken,
        body: { name: 'Automation', scopes: ['tokens:write', 'user:read'] },
      });
      const signIn = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: app.body.data.clientId,
          client_secret: app.body.data.clientSecret,
          username: ada.email,
          password: ada.password,
        },
      });
      expect(signIn.status).toBe(200);
      const res = await t.request('POST', '/user/tokens', {
        token: signIn.body.data.access_token,
        body: { name: 'escape', scopes: ['user:read'], expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    });
  });

  describe('/user/oauth-clients', () => {
    it('creates a client with its secret shown once, then lists, searches, updates, regenerates and deletes it', async () => {
      const ada = await createAccount(t);
      const created = await t.request('POST', '/user/oauth-clients', {
        token: ada.accessToken,
        body: { name: 'My Dashboard', scopes: ['user:read'], redirectUris: ['https://app.example.com/cb'] },
      });
      const client = created.body.data;
      expect(client).toMatchObject({
        clientId: expect.stringMatching(/^cl_/),
        clientSecret: expect.any(String),
        name: 'My Dashboard',
        scopes: ['user:read'],
        isActive: true,
      });
      const list = await t.request('GET', '/user/oauth-clients?q=dash', { token: ada.accessToken });
      expect(list.body.meta.total).toBe(1);
      expect(list.text).not.toContain(client.clientSecret);
      expect((await t.request('GET', `/user/oauth-clients/${client.id}`, { token: ada.accessToken })).body.data).not.toHaveProperty(
        'clientSecret',
      );
      const updated = await t.request('PUT', `/user/oauth-clients/${client.id}`, {
        token: ada.accessToken,
        body: { name: 'Renamed', isActive: true },
      });
      expect(updated.body.data).toMatchObject({ name: 'Renamed' });
      expect(updated.body.data).not.toHaveProperty('clientSecret');
      const http = await t.request('PUT', `/user/oauth-clients/${client.id}`, {
        token: ada.accessToken,
        body: { redirectUris: ['http://example.com/cb'] },
      });
      expect(http.body.meta.errors[0].name).toBe('redirectUris.0');

      const owner = { ...ada, client: { id: client.id, clientId: client.clientId, clientSecret: client.clientSecret } };
      expect((await signIn(owner)).status).toBe(200);
      const regenerated = await t.request('POST', `/user/oauth-clients/${client.id}/regenerate-secret`, { token: ada.accessToken });
      expect(Object.keys(regenerated.body.data).sort()).toEqual(['clientId', 'clientSecret', 'id', 'isActive', 'name']);
      const old = await signIn(owner, { client_secret: client.clientSecret });
      expect(old.status).toBe(401);
      expect(old.body.code).toBe('INVALID_CLIENT');
      const fresh = await signIn(owner, { client_secret: regenerated.body.data.clientSecret });
      expect(fresh.status).toBe(200);

      expect((await t.request('DELETE', `/user/oauth-clients/${client.id}`, { token: ada.accessToken })).status).toBe(200);
      expect((await t.request('GET', '/user/me', { token: fresh.body.data.access_token })).status).toBe(401);
    });

    it('lets a user-made client sign in only its owner, and hides it from others', async () => {
      const ada = await createAccount(t);
      const bob = await createAccount(t);
      const created = await t.request('POST', '/user/oauth-clients', {
        token: ada.accessToken,
        body: { name: 'Ada app', scopes: ['user:read'] },
      });
      const asBob = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: created.body.data.clientId,
          client_secret: created.body.data.clientSecret,
          username: bob.email,
          password: bob.password,
        },
      });
      expect(asBob.status).toBe(400);
      expect(asBob.body.code).toBe('UNAUTHORIZED_CLIENT');
      expect((await t.request('GET', `/user/oauth-clients/${created.body.data.id}`, { token: bob.accessToken })).status).toBe(404);
      expect(
        (await t.request('POST', `/user/oauth-clients/${created.body.data.id}/regenerate-secret`, { token: bob.accessToken })).status,
      ).toBe(404);
    });

    // The account the operator made a first-party client for could deactivate it (ending every user's
    // sessions), add redirect URIs to it, or delete itself and take the client and all its tokens along.
    it('keeps a first-party client out of reach of the account it was made for, and alive when that account is deleted', async () => {
      const ada = await createAccount(t);
      const service = await createFirstPartyClient(t, ada.id);
      const asker = await createAccount(t, { email: `asker-${Date.now()}@example.com`, client: service });
      const bob = await createAccount(t, { client: service });
      expect((await t.request('GET', '/user/oauth-clients', { token: asker.accessToken })).body.meta.total).toBe(0);
      const path = `/user/oauth-clients/${service.id}`;
      expect((await t.request('GET', path, { token: asker.accessToken })).status).toBe(404);
      expect(
        (await t.request('PUT', path, { token: asker.accessToken, body: { isActive: false, redirectUris: ['https://evil.example/cb'] } }))
          .status,
      ).toBe(404);
      expect((await t.request('POST', `${path}/regenerate-secret`, { token: asker.accessToken })).status).toBe(404);
      expect((await t.request('DELETE', path, { token: asker.accessToken })).status).toBe(404);
      expect((await t.request('GET', '/user/me', { token: bob.accessToken })).status).toBe(200);
      expect((await t.request('DELETE', '/user/me', { token: asker.accessToken })).status).toBe(200);
      expect((await t.request('GET', '/user/me', { token: bob.accessToken })).status).toBe(200);
      const refreshed = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'refresh_token',
          client_id: service.clientId,
          client_secret: service.clientSecret,
          refresh_token: bob.refreshToken,
        },
      });
      expect(refreshed.status).toBe(200);
    });
  });
});
