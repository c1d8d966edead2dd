import { createAccount, TestAccount } from './support/identity';
import { dashboardHeaders, dashboardSignIn, setCookie } from './support/dashboard';
import { TestApp, useTestApp } from './support/test-app';

const PENDING = 'lnk_dashboard_sign_in';
const SESSION = 'lnk_dashboard_session';

describe('the dashboard sign-in (token-mediating backend at /app/auth)', () => {
  let t: TestApp;
  let account: TestAccount;
  useTestApp(async (app) => {
    t = app;
    account = await createAccount(t);
  });

  const refresh = (session?: string, headers: Record<string, string> = {}) =>
    t.request('POST', '/app/auth/refresh', { headers: { ...dashboardHeaders(t, session), ...headers } });

  it(
    'starts with a redirect to the authorization page for the built-in public ' +
      'client, with PKCE S256 and a state kept in a signed HttpOnly cookie',
    async () => {
      const res = await t.request('GET', '/app/auth/sign-in?return_to=/app/tokens');
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location') ?? '');
      expect(location.origin + location.pathname).toBe(`${t.baseUrl}/oauth/authorize`);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        response_type: 'code',
        client_id: 'lnk-dashboard',
        redirect_uri: `${t.baseUrl}/app/auth/callback`,
        state: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge_method: 'S256',
      });
      const cookie = setCookie(res.headers, PENDING);
      expect(cookie?.attributes).toBe('Max-Age=600; Path=/app/auth; HttpOnly; SameSite=Lax');
      // The authorization server accepts the request: the client and its configured redirect URI exist with no set-up.
      const authorize = await t.request('GET', location.pathname + location.search);
      expect(authorize.status).toBe(302);
      expect(authorize.headers.get('location')).toContain('/oauth/authorize/page?');
    },
  );

  it(
    'signs in through the authorization page: the callback sets the session cookie ' +
      '(HttpOnly, SameSite=Strict, /app/auth only) and returns to the page asked for',
    async () => {
      const signedIn = await dashboardSignIn(t, account, '/app/tokens');
      expect(signedIn.landedAt).toBe('/app/tokens');

      const res = await refresh(signedIn.session);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.data).toMatchObject({
        tokenType: 'Bearer',
        expiresIn: 3600,
        user: { id: account.id, email: account.email },
        accessToken: expect.stringMatching(/^at_/),
      });
      expect(res.body.data.scopes).toEqual(expect.arrayContaining(['links:write', 'tokens:write', 'user:write', 'webhooks:write']));
      const rotated = setCookie(res.headers, SESSION);
      expect(rotated?.attributes).toMatch(/^Path=\/app\/auth; Expires=.+; HttpOnly; SameSite=Strict$/);
      expect(rotated?.value).not.toBe(signedIn.session);
      expect(rotated?.value).toMatch(/^rt_/);

      const me = await t.request('GET', '/user/me', { token: res.body.data.accessToken });
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe(account.email);
    },
  );

  it('ends the whole session when a rotated refresh cookie is presented again (a stolen, replayed cookie)', async () => {
    const { session } = await dashboardSignIn(t, account);
    const first = await refresh(session);
    const newer = setCookie(first.headers, SESSION)?.value ?? '';
    const replay = await refresh(session);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('UNAUTHORIZED');
    expect(setCookie(replay.headers, SESSION)?.value).toBe('');
    // The replay revoked the family: the newer cookie and the access token handed out are dead too.
    expect((await refresh(newer)).status).toBe(401);
    expect((await t.request('GET', '/user/me', { token: first.body.data.accessToken })).status).toBe(401);
  });

  it(
    'refuses a refresh without the dashboard header, from another origin, or ' +
      'with no Origin (CSRF on the cookie-authenticated endpoints)',
    async () => {
      const { session } = await dashboardSignIn(t, account);
      const noHeader = await t.request('POST', '/app/auth/refresh', { headers: { origin: t.baseUrl, cookie: `${SESSION}=${session}` } });
      expect(noHeader.status).toBe(403);
      expect(noHeader.body.code).toBe('FORBIDDEN');
      const otherOrigin = await refresh(session, { origin: 'https://evil.example' });
      expect(otherOrigin.status).toBe(403);
      const noOrigin = await t.request('POST', '/app/auth/refresh', {
        headers: { 'x-lnk-dashboard': '1', cookie: `${SESSION}=${session}` },
      });
      expect(noOrigin.status).toBe(403);
      // None of them used the cookie: it still works.
      expect((await refresh(session)).status).toBe(200);
    },
  );

  it('refuses a sign-out from another origin, so a cross-site page cannot end the session', async () => {
    const { session } = await dashboardSignIn(t, account);
    const forged = await t.request('POST', '/app/auth/sign-out', {
      headers: { ...dashboardHeaders(t, session), origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect((await refresh(session)).status).toBe(200);
  });

  it('signs out: revokes the refresh token and the access tokens it gave, and clears the cookie', async () => {
    const { session } = await dashboardSignIn(t, account);
    const refreshed = await refresh(session);
    const current = setCookie(refreshed.headers, SESSION)?.value ?? '';
    const accessToken = refreshed.body.data.accessToken;
    expect((await t.request('GET', '/user/me', { token: accessToken })).status).toBe(200);

    const out = await t.request('POST', '/app/auth/sign-out', { headers: dashboardHeaders(t, current) });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ signedOut: true });
    expect(setCookie(out.headers, SESSION)).toEqual({
      value: '',
      attributes: 'Path=/app/auth; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict',
    });
    expect((await t.request('GET', '/user/me', { token: accessToken })).status).toBe(401);
    expect((await refresh(current)).status).toBe(401);
  });

  it('answers 401 to a refresh with no session cookie', async () => {
    const res = await refresh();
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', message: 'Not signed in to the dashboard' });
  });

  describe('the callback (login CSRF and forged answers)', () => {
    /** A code and state for `account`, and the pending cookie of the sign-in that asked for them. */
    async function codeFor(who: TestAccount) {
      const start = await t.request('GET', '/app/auth/sign-in');
      const pending = setCookie(start.headers, PENDING)?.value ?? '';
      const authorize = new URL(start.headers.get('location') ?? '');
      const page = await t.request('GET', `/oauth/authorize/page${authorize.search}`);
      const form = new URLSearchParams({
        request: /name="request" value="([^"]*)"/.exec(page.text)?.[1] ?? '',
        signature: /name="signature" value="([^"]*)"/.exec(page.text)?.[1] ?? '',
        decision: 'approve',
        email: who.email,
        password: who.password,
      });
      const decided = await t.request('POST', '/oauth/authorize', {
        raw: { body: form.toString(), contentType: 'application/x-www-form-urlencoded' },
      });
      return { pending, callback: new URL(decided.headers.get('location') ?? '') };
    }

    const callback = (url: URL, cookie?: string) =>
      t.request('GET', url.pathname + url.search, { headers: cookie ? { cookie: `${PENDING}=${cookie}` } : {} });

    it(
      "refuses an attacker's code delivered to a victim's browser that started " +
        'another sign-in, or none (login CSRF): no session is set',
      async () => {
        const attacker = await createAccount(t);
        const attackers = await codeFor(attacker);
        const victims = await t.request('GET', '/app/auth/sign-in');
        for (const cookie of [setCookie(victims.headers, PENDING)?.value, undefined]) {
          const res = await callback(attackers.callback, cookie);
          expect(res.status).toBe(302);
          expect(res.headers.get('location')).toBe('/app/sign-in?error=expired');
          expect(setCookie(res.headers, SESSION)).toBeUndefined();
        }
      },
    );

    it('refuses a sign-in cookie whose content was altered (a cookie set by someone else), even with the matching state', async () => {
      const { pending, callback: url } = await codeFor(account);
      const [body, signature] = pending.split('.');
      const altered = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      altered.returnTo = '/app/account';
      const forged = `${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`;
      const res = await callback(url, forged);
      expect(res.headers.get('location')).toBe('/app/sign-in?error=expired');
      expect(setCookie(res.headers, SESSION)).toBeUndefined();
    });

    it('refuses an answer that names another issuer (RFC 9207 mix-up)', async () => {
      const { pending, callback: url } = await codeFor(account);
      url.searchParams.set('iss', 'https://other-server.example');
      const res = await callback(url, pending);
      expect(res.headers.get('location')).toBe('/app/sign-in?error=failed');
      expect(setCookie(res.headers, SESSION)).toBeUndefined();
    });

    it('sends a denied sign-in back to the sign-in page, and clears the sign-in cookie each time', async () => {
      const start = await t.request('GET', '/app/auth/sign-in');
      const pending = setCookie(start.headers, PENDING)?.value ?? '';
      const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
      const res = await callback(
        new URL(`${t.baseUrl}/app/auth/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(t.baseUrl)}`),
        pending,
      );
      expect(res.headers.get('location')).toBe('/app/sign-in?error=denied');
      expect(setCookie(res.headers, PENDING)?.value).toBe('');
    });

    it('keeps the return path inside the dashboard (no open redirect through return_to)', async () => {
      for (const target of ['https://evil.example/', '//evil.example/app', '/app/../oauth', '/docs', '/app/auth/sign-out']) {
        const start = await t.request('GET', `/app/auth/sign-in?return_to=${encodeURIComponent(target)}`);
        const pending = setCookie(start.headers, PENDING)?.value ?? '';
        expect(JSON.parse(Buffer.from(pending.split('.')[0], 'base64url').toString('utf8')).returnTo).toBe('/app/');
      }
    });
  });

  it('reserves /app: no short link may take the slug "app"', async () => {
    const res = await t.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/', slug: 'app' } });
    expect(res.status).toBe(400);
    expect(res.body.meta.errors).toEqual([expect.objectContaining({ name: 'slug' })]);
  });
});
