import * as oauth from 'oauth4webapi';
import { TestApp, useTestApp } from './support/test-app';
import { createAccount, createFirstPartyClient, createPat, createPublicClient, identityOf } from './support/identity';

const form = (fields: Record<string, string>) => ({
  raw: { body: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded' },
});

describe('OAuth 2.0 endpoints', () => {
  let t: TestApp;
  // The limits the password grant's answer is checked against below.
  useTestApp((app) => (t = app), { env: { DEFAULT_MAX_DOMAINS: '1', DEFAULT_MAX_LINKS: '100' } });

  describe('password grant', () => {
    it('answers spec 2.6 with the user and the account limits', async () => {
      const user = await identityOf(t).registerUser.execute({ email: 'grant@example.com', password: 'long password', name: 'Grace' });
      const client = await createFirstPartyClient(t, user.id);
      const res = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: client.clientId,
          client_secret: client.clientSecret,
          username: 'Grant@Example.com',
          password: 'long password',
        },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toMatchObject({ status: 200, code: 'OK', message: 'Login successful' });
      expect(res.body.data).toEqual({
        access_token: expect.stringMatching(/^at_[A-Za-z0-9_-]{43}$/),
        refresh_token: expect.stringMatching(/^rt_[A-Za-z0-9_-]{43}$/),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: expect.stringContaining('links:write'),
        user: { id: user.id, email: 'grant@example.com', name: 'Grace' },
        limits: { domains: { used: 0, limit: 1 }, links: { used: 0, limit: 100 } },
      });
      const me = await t.request('GET', '/user/me', { token: res.body.data.access_token });
      expect(me.status).toBe(200);
      expect(me.body.data.id).toBe(user.id);
    });

    // Issue 27, item 11: a confidential client's id is no secret; knowing it must not be enough to sign people in as that client.
    it(
      'makes a client with a secret authenticate (RFC 6749 4.3.2), in the body or ' +
        'HTTP Basic, and refuses it without with 401 INVALID_CLIENT',
      async () => {
        const account = await createAccount(t);
        const body = { grant_type: 'password', client_id: account.client.clientId, username: account.email, password: account.password };
        const bare = await t.request('POST', '/oauth/token', { body });
        expect(bare.status).toBe(401);
        expect(bare.body).toEqual({
          status: 401,
          code: 'INVALID_CLIENT',
          message: 'This client must authenticate with its client secret',
          meta: { error: 'invalid_client' },
        });
        const bareForm = await t.request('POST', '/oauth/token', form(body));
        expect([bareForm.status, bareForm.body.error]).toEqual([401, 'invalid_client']);
        const wrong = await t.request('POST', '/oauth/token', { body: { ...body, client_secret: 'not-the-secret' } });
        expect([wrong.status, wrong.body.code]).toEqual([401, 'INVALID_CLIENT']);
        expect((await t.request('POST', '/oauth/token', { body: { ...body, client_secret: account.client.clientSecret } })).status).toBe(
          200,
        );
      },
    );

    // Issue 27, item 10: the account's address is personal data a links:read client was not granted.
    it('leaves the e-mail and name out of the user of a sign-in and of its refresh without user:read', async () => {
      const account = await createAccount(t);
      const credentials = { client_id: account.client.clientId, client_secret: account.client.clientSecret };
      const narrow = await t.request('POST', '/oauth/token', {
        body: { grant_type: 'password', ...credentials, username: account.email, password: account.password, scope: 'links:read' },
      });
      expect(narrow.status).toBe(200);
      expect(narrow.body.data.user).toEqual({ id: account.id });
      expect(narrow.text).not.toContain(account.email);
      const refreshed = await t.request('POST', '/oauth/token', {
        body: { grant_type: 'refresh_token', ...credentials, refresh_token: narrow.body.data.refresh_token },
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.data.user).toEqual({ id: account.id });
      const profile = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          ...credentials,
          username: account.email,
          password: account.password,
          scope: 'links:read user:read',
        },
      });
      expect(profile.body.data.user).toEqual({ id: account.id, email: account.email, name: 'Test User' });
    });

    it('gives the same answer for a wrong password and an unknown e-mail', async () => {
      const account = await createAccount(t);
      const wrong = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          username: account.email,
          password: 'not the password',
        },
      });
      const unknown = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          username: 'nobody@example.com',
          password: 'not the password',
        },
      });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          status: 400,
          code: 'INVALID_GRANT',
          message: 'Invalid username or password',
          meta: { error: 'invalid_grant' },
        });
      }
    });

    it('grants only the scopes asked for, and refuses one outside the client', async () => {
      const account = await createAccount(t);
      const narrow = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          username: account.email,
          password: account.password,
          scope: 'links:read user:read',
        },
      });
      expect(narrow.body.data.scope).toBe('user:read links:read');
      const reader = await createFirstPartyClient(t, account.id, { scopes: ['links:read'] });
      const outside = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: reader.clientId,
          client_secret: reader.clientSecret,
          username: account.email,
          password: account.password,
          scope: 'links:write',
        },
      });
      expect(outside.status).toBe(400);
      expect(outside.body.code).toBe('INVALID_SCOPE');
      const byDefault = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: reader.clientId,
          client_secret: reader.clientSecret,
          username: account.email,
          password: account.password,
        },
      });
      expect(byDefault.body.data.scope).toBe('links:read');
    });

    it('refuses an unknown client and an unsupported grant type', async () => {
      const unknown = await t.request('POST', '/oauth/token', {
        body: { grant_type: 'password', client_id: 'cl_nope', username: 'a@example.com', password: 'x' },
      });
      expect(unknown.status).toBe(401);
      expect(unknown.body.code).toBe('INVALID_CLIENT');
      const account = await createAccount(t);
      const grant = await t.request('POST', '/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: account.client.clientId },
      });
      expect(grant.status).toBe(400);
      expect(grant.body.code).toBe('UNSUPPORTED_GRANT_TYPE');
      const missing = await t.request('POST', '/oauth/token', { body: { client_id: account.client.clientId } });
      expect(missing.status).toBe(400);
      expect(missing.body.meta.errors[0].name).toBe('grant_type');
    });

    it('answers a form-encoded request with the RFC body and no envelope', async () => {
      const account = await createAccount(t);
      const ok = await t.request(
        'POST',
        '/oauth/token',
        form({
          grant_type: 'password',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          username: account.email,
          password: account.password,
        }),
      );
      expect(ok.status).toBe(200);
      expect(Object.keys(ok.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
      const bad = await t.request(
        'POST',
        '/oauth/token',
        form({
          grant_type: 'password',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          username: account.email,
          password: 'wrong password',
        }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid username or password' });
      const missing = await t.request('POST', '/oauth/token', form({ client_id: account.client.clientId }));
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('invalid_request');
    });

    it('accepts client credentials in HTTP Basic and checks the secret', async () => {
      const account = await createAccount(t);
      const basic = (secret: string) => ({
        authorization: `Basic ${Buffer.from(`${account.client.clientId}:${secret}`).toString('base64')}`,
      });
      const good = await t.request('POST', '/oauth/token', {
        ...form({ grant_type: 'password', username: account.email, password: account.password }),
        headers: basic(account.client.clientSecret),
      });
      expect(good.status).toBe(200);
      const bad = await t.request('POST', '/oauth/token', {
        ...form({ grant_type: 'password', username: account.email, password: account.password }),
        headers: basic('wrong'),
      });
      expect(bad.status).toBe(401);
      expect(bad.body.error).toBe('invalid_client');
      expect(bad.headers.get('www-authenticate')).toContain('Basic');
    });

    it('slows and then refuses repeated failures for one account from one address with 429, even for the right password', async () => {
      const account = await createAccount(t);
      let last;
      for (let i = 0; i < 12; i++) {
        last = await t.request('POST', '/oauth/token', {
          body: {
            grant_type: 'password',
            client_id: account.client.clientId,
            client_secret: account.client.clientSecret,
            username: account.email,
            password: `wrong-${i}`,
          },
        });
        if (last.status === 429) break;
      }
      expect(last?.status).toBe(429);
      expect(last?.body.code).toBe('RATE_LIMITED');
      expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
      const right = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          username: account.email,
          password: account.password,
        },
      });
      expect(right.status).toBe(429);
    }, 60_000);
  });

  describe('refresh tokens', () => {
    it('rotates: the new pair works, the old refresh token does not', async () => {
      const account = await createAccount(t);
      const refreshed = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'refresh_token',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          refresh_token: account.refreshToken,
        },
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.data.refresh_token).not.toBe(account.refreshToken);
      expect((await t.request('GET', '/user/me', { token: refreshed.body.data.access_token })).status).toBe(200);
    });

    it('revokes the whole family when a rotated refresh token is replayed', async () => {
      const account = await createAccount(t);
      const first = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'refresh_token',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          refresh_token: account.refreshToken,
        },
      });
      const replay = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'refresh_token',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          refresh_token: account.refreshToken,
        },
      });
      expect(replay.status).toBe(400);
      expect(replay.body.code).toBe('INVALID_GRANT');
      expect((await t.request('GET', '/user/me', { token: first.body.data.access_token })).status).toBe(401);
      const descendant = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'refresh_token',
          client_id: account.client.clientId,
          client_secret: account.client.clientSecret,
          refresh_token: first.body.data.refresh_token,
        },
      });
      expect(descendant.status).toBe(400);
    });

    it('lets exactly one of several parallel rotations win, with no 500', async () => {
      const account = await createAccount(t);
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          t.request('POST', '/oauth/token', {
            body: {
              grant_type: 'refresh_token',
              client_id: account.client.clientId,
              client_secret: account.client.clientSecret,
              refresh_token: account.refreshToken,
            },
          }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    });

    it('refuses a refresh token presented by another client', async () => {
      const account = await createAccount(t);
      const other = await createFirstPartyClient(t, account.id);
      const res = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'refresh_token',
          client_id: other.clientId,
          client_secret: other.clientSecret,
          refresh_token: account.refreshToken,
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_GRANT');
    });

    // A leaked refresh token alone must not mint tokens for a client that has a secret (RFC 6749 section 6).
    it('refuses a refresh without the secret of a confidential client, as JSON and as the RFC body', async () => {
      const account = await createAccount(t);
      const bare = await t.request('POST', '/oauth/token', {
        body: { grant_type: 'refresh_token', client_id: account.client.clientId, refresh_token: account.refreshToken },
      });
      expect(bare.status).toBe(401);
      expect(bare.body.code).toBe('INVALID_CLIENT');
      const wrong = await t.request(
        'POST',
        '/oauth/token',
        form({
          grant_type: 'refresh_token',
          client_id: account.client.clientId,
          client_secret: 'not-the-secret',
          refresh_token: account.refreshToken,
        }),
      );
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: 'invalid_client' });
      const basic = Buffer.from(`${account.client.clientId}:${account.client.clientSecret}`).toString('base64');
      const ok = await t.request('POST', '/oauth/token', {
        ...form({ grant_type: 'refresh_token', refresh_token: account.refreshToken }),
        headers: { authorization: `Basic ${basic}` },
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ token_type: 'Bearer', refresh_token: expect.stringMatching(/^rt_/) });
    });

    it('lets a public client (no secret) refresh with its client_id alone', async () => {
      const account = await createAccount(t);
      const app = await createPublicClient(t);
      const signIn = await t.request('POST', '/oauth/token', {
        body: { grant_type: 'password', client_id: app.clientId, username: account.email, password: account.password },
      });
      expect(signIn.status).toBe(200);
      const refreshed = await t.request('POST', '/oauth/token', {
        body: { grant_type: 'refresh_token', client_id: app.clientId, refresh_token: signIn.body.data.refresh_token },
      });
      expect(refreshed.status).toBe(200);
    });
  });

  describe('revocation (RFC 7009) and introspection (RFC 7662)', () => {
    it('introspects an access token for the client it was issued to, then revokes it, after which it is inactive and refused', async () => {
      const account = await createAccount(t);
      const asOwner = { client_id: account.client.clientId, client_secret: account.client.clientSecret };
      const active = await t.request('POST', '/oauth/introspect', { body: { token: account.accessToken, ...asOwner } });
      expect(active.status).toBe(200);
      expect(active.body.data).toEqual({
        active: true,
        token_type: 'access_token',
        scope: expect.any(String),
        client_id: account.client.clientId,
        username: account.email,
        sub: account.id,
        exp: expect.any(Number),
        iat: expect.any(Number),
      });
      expect(active.body.data.scope.split(' ')).toContain('user:read');
      const revoked = await t.request('POST', '/oauth/revoke', { body: { token: account.accessToken, token_type_hint: 'access_token' } });
      expect(revoked.body).toEqual({ status: 200, code: 'OK', message: 'Token revoked', data: { revoked: true } });
      expect((await t.request('POST', '/oauth/introspect', { body: { token: account.accessToken, ...asOwner } })).body.data).toEqual({
        active: false,
      });
      expect((await t.request('GET', '/user/me', { token: account.accessToken })).status).toBe(401);
    });

    it('answers an unknown token the same way as a known one', async () => {
      const revoke = await t.request('POST', '/oauth/revoke', { body: { token: 'at_unknown' } });
      expect(revoke.body.data).toEqual({ revoked: true });
      const introspect = await t.request('POST', '/oauth/introspect', { body: { token: 'garbage' } });
      expect(introspect.body.data).toEqual({ active: false });
    });

    it('revoking a refresh token ends its access token too', async () => {
      const account = await createAccount(t);
      await t.request('POST', '/oauth/revoke', { body: { token: account.refreshToken, token_type_hint: 'refresh_token' } });
      expect((await t.request('GET', '/user/me', { token: account.accessToken })).status).toBe(401);
    });

    // Issue 27, item 10: a PAT was issued to no client, so no one learns its account, scopes or expiry this way.
    it('answers a personal access token with whether it is active and nothing more, and an authenticated client not at all', async () => {
      const account = await createAccount(t);
      const pat = await t.request('POST', '/user/tokens', { token: account.accessToken, body: { name: 'ci', scopes: ['links:read'] } });
      const res = await t.request('POST', '/oauth/introspect', { body: { token: pat.body.data.token } });
      expect(res.body.data).toEqual({ active: true });
      const asClient = await t.request('POST', '/oauth/introspect', {
        body: { token: pat.body.data.token, client_id: account.client.clientId, client_secret: account.client.clientSecret },
      });
      expect(asClient.body.data).toEqual({ active: false });
    });

    it('speaks the RFC bodies to form-encoded callers', async () => {
      const account = await createAccount(t);
      const introspect = await t.request(
        'POST',
        '/oauth/introspect',
        form({ token: account.accessToken, client_id: account.client.clientId, client_secret: account.client.clientSecret }),
      );
      expect(introspect.body).toMatchObject({ active: true, token_type: 'access_token' });
      expect((await t.request('POST', '/oauth/introspect', form({ token: account.accessToken }))).body).toEqual({ active: true });
      const revoke = await t.request('POST', '/oauth/revoke', form({ token: account.accessToken }));
      expect(revoke.status).toBe(200);
      expect(revoke.body).toEqual({});
    });

    // A PAT is revoked only through DELETE /user/tokens/{id}, where a token cannot revoke itself.
    it('answers a PAT sent to /oauth/revoke like an unknown token and leaves it working', async () => {
      const account = await createAccount(t);
      const pat = await createPat(t, account, ['user:read']);
      const res = await t.request('POST', '/oauth/revoke', { body: { token: pat.token } });
      expect(res.body).toEqual({ status: 200, code: 'OK', message: 'Token revoked', data: { revoked: true } });
      expect((await t.request('GET', '/user/me', { token: pat.token })).status).toBe(200);
      expect((await t.request('POST', '/oauth/introspect', { body: { token: pat.token } })).body.data).toMatchObject({ active: true });
    });

    // One client's resource server must learn nothing about another client's tokens (RFC 7662 section 2.2),
    // and whoever holds a token value nothing about whose it is (issue 27, item 10).
    it('answers a client that authenticates only about tokens issued to it, and anyone else only whether a token is active', async () => {
      const account = await createAccount(t);
      const other = await createFirstPartyClient(t);
      const pat = await createPat(t, account, ['user:read']);
      const asOther = { client_id: other.clientId, client_secret: other.clientSecret };
      expect((await t.request('POST', '/oauth/introspect', { body: { token: account.accessToken, ...asOther } })).body.data).toEqual({
        active: false,
      });
      expect((await t.request('POST', '/oauth/introspect', { body: { token: pat.token, ...asOther } })).body.data).toEqual({
        active: false,
      });
      const basic = Buffer.from(`${account.client.clientId}:${account.client.clientSecret}`).toString('base64');
      const own = await t.request('POST', '/oauth/introspect', {
        ...form({ token: account.accessToken }),
        headers: { authorization: `Basic ${basic}` },
      });
      expect(own.body).toMatchObject({ active: true, client_id: account.client.clientId });
      const badSecret = await t.request('POST', '/oauth/introspect', {
        body: { token: account.accessToken, client_id: other.clientId, client_secret: 'wrong' },
      });
      expect(badSecret.status).toBe(401);
      expect(badSecret.body.code).toBe('INVALID_CLIENT');
      // Without client authentication (the spec's body, the token alone, or a client_id without its secret), whether it is active and
      // nothing more.
      expect((await t.request('POST', '/oauth/introspect', { body: { token: account.accessToken } })).body.data).toEqual({ active: true });
      expect(
        (await t.request('POST', '/oauth/introspect', { body: { token: account.accessToken, client_id: account.client.clientId } })).body
          .data,
      ).toEqual({ active: true });
      expect((await t.request('POST', '/oauth/introspect', { body: { token: account.refreshToken } })).body.data).toEqual({ active: true });
    });

    // Issue 27, item 10: the address reaches even the owning client only with user:read, as in the token's own answer.
    it('gives the owning client the account address as username only when the token carries user:read', async () => {
      const account = await createAccount(t, { scope: 'links:read' });
      const res = await t.request('POST', '/oauth/introspect', {
        body: { token: account.accessToken, client_id: account.client.clientId, client_secret: account.client.clientSecret },
      });
      expect(res.body.data).toEqual({
        active: true,
        token_type: 'access_token',
        scope: 'links:read',
        client_id: account.client.clientId,
        sub: account.id,
        exp: expect.any(Number),
        iat: expect.any(Number),
      });
    });
  });

  describe('authorization code flow', () => {
    const redirectUri = 'http://127.0.0.1:9/callback';

    async function pageFields(url: string) {
      const page = await fetch(url);
      const html = await page.text();
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
      return { status: page.status, headers: page.headers, html, request: field('request'), signature: field('signature') };
    }

    async function submit(fields: Record<string, string>) {
      return fetch(`${t.baseUrl}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    }

    it(
      'signs in through the page, approves, and exchanges the code with ' + 'PKCE using oauth4webapi (a public client, iss checked)',
      async () => {
        const account = await createAccount(t);
        const client = await createPublicClient(t, { redirectUris: [redirectUri] });
        const as: oauth.AuthorizationServer = {
          issuer: t.baseUrl,
          token_endpoint: `${t.baseUrl}/oauth/token`,
          revocation_endpoint: `${t.baseUrl}/oauth/revoke`,
          introspection_endpoint: `${t.baseUrl}/oauth/introspect`,
          // oauth4webapi then requires `iss` in the authorization response and compares it (RFC 9207).
          authorization_response_iss_parameter_supported: true,
        };
        const oc: oauth.Client = { client_id: client.clientId };
        const verifier = oauth.generateRandomCodeVerifier();
        const challenge = await oauth.calculatePKCECodeChallenge(verifier);
        const state = oauth.generateRandomState();

        const authorize = new URL(`${t.baseUrl}/oauth/authorize`);
        for (const [k, v] of Object.entries({
          response_type: 'code',
          client_id: client.clientId,
          redirect_uri: redirectUri,
          scope: 'links:read user:read',
          state,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }))
          authorize.searchParams.set(k, v);
        const start = await fetch(authorize, { redirect: 'manual' });
        expect(start.status).toBe(302);
        const body = await start.json();
        expect(body).toMatchObject({ status: 302, code: 'OK', data: { redirect_url: start.headers.get('location') } });

        const page = await pageFields(start.headers.get('location') as string);
        expect(page.status).toBe(200);
        expect(page.headers.get('x-frame-options')).toBe('DENY');
        expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(page.html).toContain('name="decision" value="approve"');

        const approved = await submit({
          request: page.request,
          signature: page.signature,
          email: account.email,
          password: account.password,
          decision: 'approve',
        });
        expect(approved.status).toBe(302);
        const callback = new URL(approved.headers.get('location') as string);
        expect(callback.origin + callback.pathname).toBe(redirectUri);
        expect(callback.searchParams.get('iss')).toBe(t.baseUrl);

        const params = oauth.validateAuthResponse(as, oc, callback, state);
        const response = await oauth.authorizationCodeGrantRequest(as, oc, oauth.None(), params, redirectUri, verifier, {
          [oauth.allowInsecureRequests]: true,
        });
        const tokens = await oauth.processAuthorizationCodeResponse(as, oc, response);
        expect(tokens.token_type).toBe('bearer');
        expect(tokens.scope).toBe('user:read links:read');
        expect((await t.request('GET', '/user/me', { token: tokens.access_token })).body.data.email).toBe(account.email);

        const refreshed = await oauth.processRefreshTokenResponse(
          as,
          oc,
          await oauth.refreshTokenGrantRequest(as, oc, oauth.None(), tokens.refresh_token as string, {
            [oauth.allowInsecureRequests]: true,
          }),
        );
        expect(refreshed.access_token).not.toBe(tokens.access_token);

        await oauth.processRevocationResponse(
          await oauth.revocationRequest(as, oc, oauth.None(), refreshed.refresh_token as string, { [oauth.allowInsecureRequests]: true }),
        );
        expect((await t.request('GET', '/user/me', { token: refreshed.access_token })).status).toBe(401);

        // The code was single-use: presenting it again fails and revokes what it issued.
        const again = await oauth.authorizationCodeGrantRequest(as, oc, oauth.None(), params, redirectUri, verifier, {
          [oauth.allowInsecureRequests]: true,
        });
        expect(again.status).toBe(400);
        expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
      },
    );

    it('sends the browser back with access_denied when the user denies', async () => {
      const account = await createAccount(t);
      const client = await createFirstPartyClient(t, account.id, { redirectUris: [redirectUri] });
      const page = await pageFields(
        `${t.baseUrl}/oauth/authorize/page?response_type=code&client_id=` +
          `${client.clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&state=xyz`,
      );
      const denied = await submit({ request: page.request, signature: page.signature, decision: 'deny' });
      expect(denied.status).toBe(302);
      const location = new URL(denied.headers.get('location') as string);
      // The issuer identifier tells the client which server answered, against mix-up attacks (RFC 9207).
      expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'access_denied', state: 'xyz', iss: t.baseUrl });
    });

    it('shows the page again with an error on wrong credentials, and refuses a tampered request', async () => {
      const account = await createAccount(t);
      const client = await createFirstPartyClient(t, account.id, { redirectUris: [redirectUri] });
      const page = await pageFields(
        `${t.baseUrl}/oauth/authorize/page?response_type=code&client_id=${client.clientId}&redirect_uri=${encodeURIComponent(redirectUri)}`,
      );
      const wrong = await submit({
        request: page.request,
        signature: page.signature,
        email: account.email,
        password: 'wrong password',
        decision: 'approve',
      });
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toContain('Invalid username or password');
      const tampered = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(page.request, 'base64url').toString()), redirectUri: 'https://evil.example/cb' }),
      ).toString('base64url');
      const refused = await submit({
        request: tampered,
        signature: page.signature,
        email: account.email,
        password: account.password,
        decision: 'approve',
      });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('location')).toBeNull();
    });

    it('never redirects to an unregistered redirect URI or for an unknown client', async () => {
      const account = await createAccount(t);
      const client = await createFirstPartyClient(t, account.id, { redirectUris: [redirectUri] });
      const foreign = await t.request(
        'GET',
        `/oauth/authorize?response_type=code&client_id=${client.clientId}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
      );
      expect(foreign.status).toBe(400);
      expect(foreign.headers.get('location')).toBeNull();
      expect(foreign.body.code).toBe('INVALID_REQUEST');
      const unknown = await t.request(
        'GET',
        `/oauth/authorize?response_type=code&client_id=cl_nope&redirect_uri=${encodeURIComponent(redirectUri)}`,
      );
      expect(unknown.status).toBe(400);
      const wrongType = await t.request(
        'GET',
        `/oauth/authorize?response_type=token&client_id=${client.clientId}&redirect_uri=${encodeURIComponent(redirectUri)}`,
      );
      expect(wrongType.status).toBe(400);
    });

    // A stolen code must be useless without the client's secret; a verifier for a code issued without a
    // challenge is a PKCE downgrade (RFC 9700 section 2.1.1).
    it(
      'makes a confidential client authenticate at the exchange, and ' + 'refuses a verifier for a code issued without a challenge',
      async () => {
        const account = await createAccount(t);
        const client = await createFirstPartyClient(t, account.id, { redirectUris: [redirectUri] });
        const codeFor = async (extra = '') => {
          const page = await pageFields(
            `${t.baseUrl}/oauth/authorize/page?response_type=code&client_id=` +
              `${client.clientId}&redirect_uri=${encodeURIComponent(redirectUri)}${extra}`,
          );
          const approved = await submit({
            request: page.request,
            signature: page.signature,
            email: account.email,
            password: account.password,
            decision: 'approve',
          });
          return new URL(approved.headers.get('location') as string).searchParams.get('code') as string;
        };
        const verifier = oauth.generateRandomCodeVerifier();
        const challenge = `&code_challenge=${await oauth.calculatePKCECodeChallenge(verifier)}&code_challenge_method=S256`;
        const withoutSecret = await t.request('POST', '/oauth/token', {
          body: {
            grant_type: 'authorization_code',
            client_id: client.clientId,
            code: await codeFor(challenge),
            redirect_uri: redirectUri,
            code_verifier: verifier,
          },
        });
        expect(withoutSecret.status).toBe(401);
        expect(withoutSecret.body.code).toBe('INVALID_CLIENT');
        const downgrade = await t.request('POST', '/oauth/token', {
          body: {
            grant_type: 'authorization_code',
            client_id: client.clientId,
            client_secret: client.clientSecret,
            code: await codeFor(),
            redirect_uri: redirectUri,
            code_verifier: verifier,
          },
        });
        expect(downgrade.status).toBe(400);
        expect(downgrade.body.code).toBe('INVALID_GRANT');
        const withSecret = await t.request('POST', '/oauth/token', {
          body: {
            grant_type: 'authorization_code',
            client_id: client.clientId,
            client_secret: client.clientSecret,
            code: await codeFor(),
            redirect_uri: redirectUri,
          },
        });
        expect(withSecret.status).toBe(200);
        expect(withSecret.body.data.user.email).toBe(account.email);
      },
    );

    it('requires PKCE of a public client before it shows the page', async () => {
      const client = await createPublicClient(t, { redirectUris: [redirectUri] });
      const res = await t.request(
        'GET',
        `/oauth/authorize?response_type=code&client_id=${client.clientId}&redirect_uri=${encodeURIComponent(redirectUri)}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_REQUEST');
      expect(res.headers.get('location')).toBeNull();
    });
  });
});
