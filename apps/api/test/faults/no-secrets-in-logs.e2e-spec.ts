import speakeasy from 'speakeasy';
import { call, runBuiltCli, spawnBuiltApp, SpawnedApp, useBuiltApp } from '../support/built-app';

/** The forms a secret could take in a log line: as it is, JSON-escaped, URL-encoded. */
function formsOf(secret: string): string[] {
  return [
    ...new Set([
      secret,
      JSON.stringify(secret).slice(1, -1),
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
    ]),
  ];
}

describe('secrets never reach the log, even at LOG_LEVEL=trace', () => {
  let app: SpawnedApp | undefined;

  const fixture = useBuiltApp(async () => app?.stop(5000));

  it('keeps passwords, tokens, client secrets, TOTP secrets, backup codes and link passwords out of stdout and stderr', async () => {
    const { dist, db } = fixture();
    /** Every secret the exercise below hands the app or gets from it, by what it is. */
    const secrets: Record<string, string> = {};
    const env = { ...db.env, LOG_LEVEL: 'trace' };

    secrets['user password'] = 'Correct-Horse-Battery-9431';
    const email = 'secrets@example.com';
    const created = await runBuiltCli(
      dist,
      ['user:create', '--email', email, '--password', secrets['user password'], '--name', 'Secret Keeper'],
      env,
    );
    expect(created.code).toBe(0);
    const client = await runBuiltCli(dist, ['client:create', '--owner', email, '--name', 'first party'], env);
    expect(client.code).toBe(0);
    // The CLI prints the new client's secret as its answer (stdout), never in its log (stderr).
    secrets['first-party client secret'] = client.json.clientSecret;
    const cliLog = created.stderr + client.stderr;

    app = await spawnBuiltApp(dist, env);
    const { baseUrl } = app;
    const clientId: string = client.json.clientId;
    const grant = (extra: Record<string, string> = {}) =>
      call(baseUrl, 'POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: clientId,
          client_secret: secrets['first-party client secret'],
          username: email,
          password: secrets['user password'],
          ...extra,
        },
      });

    // Password grant, and the same as a form, as off-the-shelf OAuth clients send it.
    const signIn = await grant();
    expect(signIn.status).toBe(200);
    secrets['access token'] = signIn.body.data.access_token;
    secrets['refresh token'] = signIn.body.data.refresh_token;
    const formSignIn = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: clientId,
        client_secret: secrets['first-party client secret'],
        username: email,
        password: secrets['user password'],
      }).toString(),
    });
    expect(formSignIn.status).toBe(200);
    // A form-encoded request gets the RFC's body, without the envelope.
    const formTokens = (await formSignIn.json()) as { access_token: string; refresh_token: string };
    secrets['access token (form grant)'] = formTokens.access_token;
    secrets['refresh token (form grant)'] = formTokens.refresh_token;

    // Refresh grant, the new access token used; then the old refresh token again, which fails (and revokes its family).
    const refreshed = await call(baseUrl, 'POST', '/oauth/token', {
      body: {
        grant_type: 'refresh_token',
        client_id: clientId,
        client_secret: secrets['first-party client secret'],
        refresh_token: secrets['refresh token'],
      },
    });
    expect(refreshed.status).toBe(200);
    secrets['refreshed access token'] = refreshed.body.data.access_token;
    secrets['refreshed refresh token'] = refreshed.body.data.refresh_token;
    expect((await call(baseUrl, 'GET', '/user/me', { token: secrets['refreshed access token'] })).status).toBe(200);
    expect(
      (
        await call(baseUrl, 'POST', '/oauth/token', {
          body: {
            grant_type: 'refresh_token',
            client_id: clientId,
            client_secret: secrets['first-party client secret'],
            refresh_token: secrets['refresh token'],
          },
        })
      ).status,
    ).toBe(400);
    const again = await grant();
    expect(again.status).toBe(200);
    secrets['access token (second sign-in)'] = again.body.data.access_token;
    secrets['refresh token (second sign-in)'] = again.body.data.refresh_token;
    const token = secrets['access token (second sign-in)'];

    // A personal access token, used once.
    const pat = await call(baseUrl, 'POST', '/user/tokens', { token, body: { name: 'ci', scopes: ['links:read'] } });
    expect(pat.status).toBe(200);
    secrets['personal access token'] = pat.body.data.token;
    expect((await call(baseUrl, 'GET', '/user/link', { token: secrets['personal access token'] })).status).toBe(200);

    // An OAuth client of the user's own, and its secret regenerated.
    const own = await call(baseUrl, 'POST', '/user/oauth-clients', {
      token,
      body: { name: 'My app', scopes: ['links:read'], redirectUris: ['https://app.example.com/cb'] },
    });
    expect(own.status).toBe(200);
    secrets['client secret'] = own.body.data.clientSecret;
    const regenerated = await call(baseUrl, 'POST', `/user/oauth-clients/${own.body.data.id}/regenerate-secret`, { token });
    expect(regenerated.status).toBe(200);
    secrets['regenerated client secret'] = regenerated.body.data.clientSecret;
    // Its owner signs in through it: with the old secret (refused) and the new one.
    const throughOwn = (clientSecret: string) => grant({ client_id: own.body.data.clientId, client_secret: clientSecret });
    expect((await throughOwn(secrets['client secret'])).status).toBe(401);
    const ownSignIn = await throughOwn(secrets['regenerated client secret']);
    expect(ownSignIn.status).toBe(200);
    secrets['access token (own client)'] = ownSignIn.body.data.access_token;

    // Two-factor sign-in on: the TOTP secret and the backup codes; then sign-ins with a code and a backup code.
    const twoFactor = await call(baseUrl, 'POST', '/user/me/enable-twofactor', { token, body: { enable: true } });
    expect(twoFactor.status).toBe(200);
    secrets['TOTP secret'] = twoFactor.body.data.secret;
    twoFactor.body.data.backupCodes.forEach((code: string, i: number) => (secrets[`backup code ${i + 1}`] = code));
    // The enrolment is put in force with one code; sign-in takes a code of a later step (each step is accepted once).
    const [current, next] = [0, 1].map((steps) =>
      speakeasy.totp({ secret: secrets['TOTP secret'], encoding: 'base32', time: Math.floor(Date.now() / 1000) + steps * 30 }),
    );
    expect((await call(baseUrl, 'POST', '/user/me/twofactor/confirm', { token, body: { code: current } })).status).toBe(200);
    expect((await grant()).status).toBe(401);
    expect((await grant({ otp: next })).status).toBe(200);
    expect((await grant({ otp: secrets['backup code 1'] })).status).toBe(200);
    expect((await grant({ otp: secrets['backup code 1'] })).status).toBe(400);

    // A password-protected link, opened with the wrong password and the right one.
    secrets['link password'] = 'Open-Sesame-7720';
    const link = await call(baseUrl, 'POST', '/user/link', {
      token,
      body: { url: 'https://example.com/vault', slug: 'vault', hasPassword: true, password: secrets['link password'] },
    });
    expect(link.status).toBe(200);
    secrets['wrong link password'] = 'Close-Sesame-1185';
    const unlock = (password: string) =>
      fetch(`${baseUrl}/vault`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password }).toString(),
      });
    expect((await unlock(secrets['wrong link password'])).status).toBe(401);
    expect((await unlock(secrets['link password'])).status).toBe(200);

    // Failures: a wrong password at sign-in, a wrong current password, a bogus bearer token (in the header and in the query).
    secrets['wrong password'] = 'Wrong-Horse-Battery-5519';
    expect(
      (
        await call(baseUrl, 'POST', '/oauth/token', {
          body: {
            grant_type: 'password',
            client_id: clientId,
            client_secret: secrets['first-party client secret'],
            username: email,
            password: secrets['wrong password'],
            otp: '000000',
          },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(baseUrl, 'PUT', '/user/me/password', {
          token,
          body: { currentPassword: secrets['wrong password'], newPassword: 'Another-Horse-2207' },
        })
      ).status,
    ).toBeGreaterThanOrEqual(400);
    secrets['bogus bearer token'] = 'at_ThisIsNotARealTokenButLooksLikeOne1234567';
    const bogus = await call(baseUrl, 'GET', '/user/me', {
      token: secrets['bogus bearer token'],
      headers: { 'x-request-id': 'bogus-bearer-1' },
    });
    expect(bogus.status).toBe(401);
    expect(bogus.headers.get('x-request-id')).toBe('bogus-bearer-1');
    expect((await call(baseUrl, 'GET', `/user/me?access_token=${secrets['bogus bearer token']}`)).status).toBe(401);
    // A malformed grant carrying a password: validation errors must not echo it.
    expect(
      (
        await call(baseUrl, 'POST', '/oauth/token', {
          body: { grant_type: 'password', username: email, password: secrets['user password'], scope: 42 },
        })
      ).status,
    ).toBe(400);

    // A clean stop flushes the log.
    expect(await app.stop()).toEqual({ code: 0, signal: null });
    const log = app.output();

    const lines = log.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(10);
    const records = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return { unparsed: line };
      }
    });
    // Request ids tie log lines to requests: the id a request was answered with (X-Request-Id) is in the log.
    const withIds = records.filter((r) => typeof r['reqId'] === 'string');
    expect(withIds.length).toBeGreaterThan(20);
    expect(withIds.find((r) => r['reqId'] === 'bogus-bearer-1')).toMatchObject({ method: 'GET', path: '/user/me', statusCode: 401 });
    expect(records.some((r) => r['reqId'] && r['path'] === '/oauth/token' && r['statusCode'] === 400)).toBe(true);
    // Issue 13: a short URL gets no request id of its own (a caller's is kept); its request line is still written.
    expect(records.some((r) => r['method'] === 'POST' && r['path'] === '/vault' && r['statusCode'] === 200)).toBe(true);

    // Long enough that finding one in the log is no coincidence.
    expect(Object.entries(secrets).filter(([, secret]) => typeof secret !== 'string' || secret.length < 8)).toEqual([]);
    const leaked = Object.entries(secrets).filter(([, secret]) =>
      formsOf(secret).some((form) => log.includes(form) || cliLog.includes(form)),
    );
    expect(leaked.map(([what]) => what)).toEqual([]);
  }, 120_000);
});
