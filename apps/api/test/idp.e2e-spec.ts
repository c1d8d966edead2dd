import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, JWK, SignJWT } from 'jose';
import { createFirstPartyClient, identityOf } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

describe('POST /oauth/idp: sign-in with an OpenID Connect ID token', () => {
  const issuer = 'https://accounts.idp.test';
  const audience = 'lnk-web';
  let jwks: Server;
  let keys: { privateKey: CryptoKey; jwk: JWK };
  let t: TestApp;
  let clientId: string;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    keys = { privateKey: pair.privateKey as CryptoKey, jwk: { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' } };
    jwks = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [keys.jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const jwksUri = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
    t = await startTestApp({ env: { IDP_PROVIDERS: JSON.stringify([{ issuer, jwksUri, audience }]) } });
    const operator = await identityOf(t).registerUser.execute({ email: 'operator@example.com', password: 'operator password' });
    clientId = (await createFirstPartyClient(t, operator.id)).clientId;
  });

  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  const idToken = (claims: Record<string, unknown>, options: { key?: CryptoKey; aud?: string; iss?: string; exp?: string | number } = {}) =>
    new SignJWT({ email: 'New.Person@Example.com', email_verified: true, name: 'New Person', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(options.iss ?? issuer)
      .setAudience(options.aud ?? audience)
      .setSubject('idp-user-1')
      .setIssuedAt()
      .setExpirationTime(options.exp ?? '5m')
      .sign(options.key ?? keys.privateKey);

  it('creates a verified account on first sign-in and signs the same account in again', async () => {
    const first = await t.request('POST', '/oauth/idp', { body: { token: await idToken({}), client_id: clientId } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ token_type: 'Bearer', expires_in: 3600, user: { email: 'new.person@example.com', name: 'New Person' } });
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
});
