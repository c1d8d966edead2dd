import { SCOPES } from '@lnk/identity/domain';
import { ROUTE_SCOPES as SCOPE_TABLE } from '../src/app-routes';
import { createAccount, createPat, identityOf, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

const ENTRIES = Object.entries(SCOPE_TABLE) as [string, string][];
const SOME_ID = '0123456789abcdef01234567';

function call(t: TestApp, entry: string, token?: string) {
  const [method, pattern] = entry.split(' ');
  return t.request(method, pattern.replace(':id', SOME_ID), { token, ...(['POST', 'PUT'].includes(method) ? { body: {} } : {}) });
}

/** Credentials that must authenticate nobody, made once per run and checked against every route. */
interface DeadCredentials {
  expiredPat: string;
  revokedPat: string;
  revokedAccessToken: string;
  deletedUsersPat: string;
}

/** Another account's resources, one for each kind of id in the scope table's routes. */
interface VictimResources {
  account: TestAccount;
  ids: Record<string, string>;
  names: string[];
}

const RESOURCE_OF: [RegExp, string][] = [
  [/^\/user\/tokens\/:id/, 'token'],
  [/^\/user\/oauth-clients\/:id/, 'client'],
  [/^\/user\/link\/:id/, 'link'],
  [/^\/user\/tag\/:id/, 'tag'],
  [/^\/user\/domain\/:id/, 'domain'],
  [/^\/user\/webhooks\/:id/, 'webhook'],
];

describe('bearer authentication and the scope table', () => {
  let t: TestApp;
  let owner: TestAccount;

  let dead: DeadCredentials;
  let victim: VictimResources;
  let attacker: { token: string };

  beforeAll(async () => {
    // Loopback webhook destinations allowed (the victim's webhook points at one), and no worker sending to it.
    t = await startTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_WORKER: 'false' } });
    owner = await createAccount(t);

    const expiring = await createAccount(t);
    const expiredPat = await createPat(t, expiring, SCOPES);
    await t.dataSource.query(`UPDATE personal_access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiredPat.id]);
    const revoking = await createAccount(t);
    const revokedPat = await createPat(t, revoking, SCOPES);
    expect((await t.request('DELETE', `/user/tokens/${revokedPat.id}`, { token: revoking.accessToken })).status).toBe(200);
    const revokedSession = await createAccount(t);
    expect(
      (
        await t.request('POST', '/oauth/revoke', {
          body: {
            token: revokedSession.accessToken,
            client_id: revokedSession.client.clientId,
            client_secret: revokedSession.client.clientSecret,
          },
        })
      ).status,
    ).toBe(200);
    const leaving = await createAccount(t);
    const deletedUsersPat = await createPat(t, leaving, SCOPES);
    expect((await t.request('DELETE', '/user/me', { token: leaving.accessToken })).status).toBe(200);
    identityOf(t).principalCache.tokensRevoked();
    dead = {
      expiredPat: expiredPat.token,
      revokedPat: revokedPat.token,
      revokedAccessToken: revokedSession.accessToken,
      deletedUsersPat: deletedUsersPat.token,
    };

    const account = await createAccount(t);
    const as = { token: account.accessToken };
    const made = async (path: string, body: Record<string, unknown>) => {
      const res = await t.request('POST', path, { ...as, body });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
      return res.body.data as { id: string };
    };
    const names = ['victim-link-title', 'victim-tag', 'victim-client', 'victim-token', 'victim.example.org', 'victim-webhook'];
    const link = await made('/user/link', { url: 'https://victim.example.com/secret-page', slug: 'victim-slug', title: names[0] });
    const tag = await made('/user/tag', { name: names[1] });
    const client = await made('/user/oauth-clients', {
      name: names[2],
      scopes: ['links:read'],
      redirectUris: ['https://victim.example.com/cb'],
    });
    const token = await made('/user/tokens', { name: names[3], scopes: ['links:read'] });
    const domain = await made('/user/domain', { name: names[4] });
    const hook = await t.request('POST', '/user/webhooks', {
      ...as,
      body: { url: 'http://127.0.0.1:9/victim-hook', events: ['link.created'], description: names[5] },
    });
    if (hook.status !== 200) throw new Error(`/user/webhooks: ${hook.status} ${hook.text}`);
    const webhook = hook.body.data as { id: string };
    victim = {
      account,
      ids: { link: link.id, tag: tag.id, client: client.id, token: token.id, domain: domain.id, webhook: webhook.id },
      names: [...names, 'victim-slug', 'secret-page', 'victim-hook'],
    };
    attacker = await createPat(t, await createAccount(t), SCOPES);
  });
  afterAll(() => t?.close());

  describe.each(ENTRIES)('%s (scope %s)', (entry, scope) => {
    it.each([
      ['a malformed Authorization header', 'not-a-token at all'],
      ['an expired PAT', 'expiredPat'],
      ['a revoked PAT', 'revokedPat'],
      ['a revoked access token', 'revokedAccessToken'],
      ['a PAT of a deleted account', 'deletedUsersPat'],
    ])('answers 401 UNAUTHORIZED to %s', async (_what, which) => {
      const token = which in dead ? dead[which as keyof DeadCredentials] : which;
      const res = await call(t, entry, token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    });

    const resource = RESOURCE_OF.find(([pattern]) => pattern.test(entry.split(' ')[1]))?.[1];
    // Routes with an id of the caller's resources; the others take none.
    if (resource)
      it(`answers 404 to another account's ${resource} id, shows none of it and changes nothing`, async () => {
        const [method, pattern] = entry.split(' ');
        const id = victim.ids[resource as string];
        const changes: Record<string, Record<string, unknown>> = { link: { title: 'hijacked' }, webhook: { description: 'hijacked' } };
        const body =
          method === 'PUT' ? { body: changes[resource as string] ?? { name: 'hijacked' } } : method === 'POST' ? { body: {} } : {};
        const res = await t.request(method, pattern.replace(':id', id), { token: attacker.token, ...body });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('NOT_FOUND');
        for (const name of victim.names) expect(res.text).not.toContain(name);
        const details: Record<string, string> = {
          link: `/user/link/${id}`,
          tag: '/user/tag',
          client: `/user/oauth-clients/${id}`,
          token: `/user/tokens/${id}`,
          domain: '/user/domain',
          webhook: `/user/webhooks/${id}`,
        };
        const detail = details[resource as string];
        const own = await t.request('GET', detail, { token: victim.account.accessToken });
        expect(own.status).toBe(200);
        expect(own.text).toContain(id);
        expect(own.text).not.toContain('hijacked');
      });

    it('answers 401 UNAUTHORIZED without a token', async () => {
      const res = await call(t, entry);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    });

    it('answers 403 FORBIDDEN naming the scope to a token holding every other scope', async () => {
      const pat = await createPat(
        t,
        owner,
        SCOPES.filter((s) => s !== scope),
      );
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
      expect(res.status).not.toBe(401);
      // Past the scope check, a sensitive account action may still ask a PAT (never a sign-in) for the password.
      if (res.status === 403) expect(res.body.code).toBe('REAUTHENTICATION_REQUIRED');
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
      identityOf(t).principalCache.tokensRevoked();
      expect((await t.request('GET', '/user/me', { token: account.accessToken })).status).toBe(401);
    });
  });
});
