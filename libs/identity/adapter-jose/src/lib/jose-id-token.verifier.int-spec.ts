import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, JWK, SignJWT, UnsecuredJWT } from 'jose';
import { JoseIdTokenVerifier } from './jose-id-token.verifier';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function signingKey(kid: string): Promise<SigningKey> {
  const pair = await generateKeyPair('RS256');
  return { kid, privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/** A provider's JWKS endpoint on loopback; the served keys can be swapped to mimic a key rotation. */
interface JwksServer {
  uri: string;
  requests: number;
  serve(keys: SigningKey[]): void;
  close(): Promise<void>;
}

async function startJwksServer(keys: SigningKey[]): Promise<JwksServer> {
  let served = keys;
  const state = { requests: 0 };
  const server = createServer((_req, res) => {
    state.requests += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: served.map((key) => key.jwk) }));
  });
  const port = await listen(server);
  return {
    uri: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    get requests() {
      return state.requests;
    },
    serve: (next) => {
      served = next;
    },
    close: () => close(server),
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

interface TokenOptions {
  key: SigningKey;
  kid?: string;
  issuer: string;
  audience?: string | string[];
  subject?: string | null;
  expiresAt?: string | number | null;
}

function idToken(claims: Record<string, unknown>, options: TokenOptions): Promise<string> {
  const jwt = new SignJWT({ email: 'Ada.Lovelace@Example.COM', email_verified: true, name: 'Ada Lovelace', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? options.key.kid })
    .setIssuer(options.issuer)
    .setAudience(options.audience ?? 'lnk-web')
    .setIssuedAt();
  if (options.subject !== null) jwt.setSubject(options.subject ?? 'idp-user-1');
  if (options.expiresAt !== null) jwt.setExpirationTime(options.expiresAt ?? '5m');
  return jwt.sign(options.key.privateKey);
}

describe('JoseIdTokenVerifier against a JWKS endpoint on loopback', () => {
  const issuer = 'https://accounts.idp.test';
  let k1: SigningKey;
  let jwks: JwksServer;
  let verifier: JoseIdTokenVerifier;
  const token = (claims: Record<string, unknown> = {}, options: Partial<TokenOptions> = {}) =>
    idToken(claims, { key: k1, issuer, ...options });

  beforeAll(async () => {
    k1 = await signingKey('k1');
    jwks = await startJwksServer([k1]);
    verifier = new JoseIdTokenVerifier([{ issuer, jwksUri: jwks.uri, audience: 'lnk-web' }]);
  });

  afterAll(() => jwks?.close());

  it('accepts a valid token and returns the identity with the e-mail lowercased', async () => {
    await expect(verifier.verify(await token())).resolves.toEqual({
      issuer,
      subject: 'idp-user-1',
      email: 'ada.lovelace@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
    });
  });

  it('accepts email_verified sent as the string "true" and leaves out an absent name', async () => {
    const identity = await verifier.verify(await token({ email_verified: 'true', name: undefined }));
    expect(identity).toEqual({ issuer, subject: 'idp-user-1', email: 'ada.lovelace@example.com', emailVerified: true });
  });

  it('accepts a token whose audience list includes the configured audience', async () => {
    await expect(verifier.verify(await token({}, { audience: ['other-app', 'lnk-web'] }))).resolves.toMatchObject({
      subject: 'idp-user-1',
    });
  });

  it('fetches the key set once and serves later tokens from its cache', async () => {
    const before = jwks.requests;
    await verifier.verify(await token());
    await verifier.verify(await token({}, { subject: 'idp-user-2' }));
    expect(jwks.requests).toBe(before);
  });

  it('refuses a token signed by another key under the same kid', async () => {
    const forger = await signingKey('k1');
    await expect(verifier.verify(await token({}, { key: forger }))).resolves.toBeNull();
  });

  it('refuses a token signed by another key under an unknown kid', async () => {
    const forger = await signingKey('k-forged');
    await expect(verifier.verify(await token({}, { key: forger }))).resolves.toBeNull();
  });

  it('refuses an expired token', async () => {
    await expect(verifier.verify(await token({}, { expiresAt: Math.floor(Date.now() / 1000) - 3600 }))).resolves.toBeNull();
  });

  it('accepts a token expired by less than the clock tolerance', async () => {
    await expect(verifier.verify(await token({}, { expiresAt: Math.floor(Date.now() / 1000) - 5 }))).resolves.not.toBeNull();
  });

  it('refuses a token without an expiry', async () => {
    await expect(verifier.verify(await token({}, { expiresAt: null }))).resolves.toBeNull();
  });

  it('refuses a token for another audience', async () => {
    await expect(verifier.verify(await token({}, { audience: 'someone-else' }))).resolves.toBeNull();
  });

  it('refuses a token from an unknown issuer, even one signed by a known key', async () => {
    await expect(verifier.verify(await token({}, { issuer: 'https://evil.test' }))).resolves.toBeNull();
  });

  it.each([
    ['false', { email_verified: false }],
    ['the string "false"', { email_verified: 'false' }],
    ['missing', { email_verified: undefined }],
  ])('refuses a token whose email_verified is %s', async (_what, claims) => {
    await expect(verifier.verify(await token(claims))).resolves.toBeNull();
  });

  it.each([
    ['missing', { email: undefined }],
    ['not a string', { email: 42 }],
    ['blank', { email: '' }],
  ])('refuses a token whose email is %s', async (_what, claims) => {
    await expect(verifier.verify(await token(claims))).resolves.toBeNull();
  });

  it('refuses a token without a subject', async () => {
    await expect(verifier.verify(await token({}, { subject: null }))).resolves.toBeNull();
  });

  it.each([
    ['not a JWT', 'abc'],
    ['empty', ''],
    ['three garbage segments', 'a.b.c'],
  ])('refuses a token that is %s', async (_what, value) => {
    await expect(verifier.verify(value)).resolves.toBeNull();
  });

  it('refuses an unsigned token (alg none)', async () => {
    const unsigned = new UnsecuredJWT({ email: 'ada@example.com', email_verified: true })
      .setIssuer(issuer)
      .setAudience('lnk-web')
      .setSubject('idp-user-1')
      .setExpirationTime('5m')
      .encode();
    await expect(verifier.verify(unsigned)).resolves.toBeNull();
  });

  it('refuses a token signed with HS256, whatever the secret', async () => {
    const hs256 = await new SignJWT({ email: 'ada@example.com', email_verified: true })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience('lnk-web')
      .setSubject('idp-user-1')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(JSON.stringify(k1.jwk)));
    await expect(verifier.verify(hs256)).resolves.toBeNull();
  });
});

describe('JoseIdTokenVerifier when the provider rotates its keys', () => {
  const issuer = 'https://rotating.idp.test';
  let jwks: JwksServer;

  afterAll(() => jwks?.close());

  it('refetches the key set for an unknown kid and accepts tokens signed by the new key', async () => {
    const [oldKey, newKey] = await Promise.all([signingKey('2024-01'), signingKey('2024-07')]);
    jwks = await startJwksServer([oldKey]);
    // No cooldown between refetches, so the rotation is seen at once rather than after 30 s.
    const verifier = new JoseIdTokenVerifier([{ issuer, jwksUri: jwks.uri, audience: 'lnk-web' }], { jwksCooldownMs: 0 });
    await expect(verifier.verify(await idToken({}, { key: oldKey, issuer }))).resolves.not.toBeNull();

    jwks.serve([newKey]);
    await expect(verifier.verify(await idToken({}, { key: newKey, issuer }))).resolves.toMatchObject({ issuer, subject: 'idp-user-1' });
    await expect(verifier.verify(await idToken({}, { key: oldKey, issuer }))).resolves.toBeNull();
  });
});

describe('JoseIdTokenVerifier with two providers', () => {
  const issuerA = 'https://a.idp.test';
  const issuerB = 'https://b.idp.test';
  let keyA: SigningKey;
  let keyB: SigningKey;
  let jwksA: JwksServer;
  let jwksB: JwksServer;
  let verifier: JoseIdTokenVerifier;

  beforeAll(async () => {
    // The same kid at both providers: each token must be checked only against its own issuer's keys.
    [keyA, keyB] = await Promise.all([signingKey('main'), signingKey('main')]);
    [jwksA, jwksB] = await Promise.all([startJwksServer([keyA]), startJwksServer([keyB])]);
    verifier = new JoseIdTokenVerifier([
      { issuer: issuerA, jwksUri: jwksA.uri, audience: 'lnk-web' },
      { issuer: issuerB, jwksUri: jwksB.uri, audience: ['lnk-mobile', 'lnk-web'] },
    ]);
  });

  afterAll(async () => {
    await jwksA?.close();
    await jwksB?.close();
  });

  it("verifies each provider's tokens against that provider's keys", async () => {
    await expect(verifier.verify(await idToken({}, { key: keyA, issuer: issuerA }))).resolves.toMatchObject({ issuer: issuerA });
    await expect(verifier.verify(await idToken({}, { key: keyB, issuer: issuerB, audience: 'lnk-mobile' }))).resolves.toMatchObject({
      issuer: issuerB,
    });
  });

  it("refuses a token claiming one provider but signed with the other provider's key", async () => {
    await expect(verifier.verify(await idToken({}, { key: keyB, issuer: issuerA }))).resolves.toBeNull();
    await expect(verifier.verify(await idToken({}, { key: keyA, issuer: issuerB }))).resolves.toBeNull();
  });
});

describe('JoseIdTokenVerifier when the JWKS endpoint fails', () => {
  const issuer = 'https://down.idp.test';
  let key: SigningKey;

  beforeAll(async () => {
    key = await signingKey('k1');
  });

  it('refuses the token when the JWKS endpoint refuses connections', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await close(closed);
    const verifier = new JoseIdTokenVerifier([{ issuer, jwksUri: `http://127.0.0.1:${port}/jwks`, audience: 'lnk-web' }]);
    await expect(verifier.verify(await idToken({}, { key, issuer }))).resolves.toBeNull();
  });

  it('refuses the token once the timeout passes when the JWKS endpoint never answers', async () => {
    const silent = createServer(() => undefined);
    const port = await listen(silent);
    try {
      const verifier = new JoseIdTokenVerifier([{ issuer, jwksUri: `http://127.0.0.1:${port}/jwks`, audience: 'lnk-web' }], {
        jwksTimeoutMs: 200,
      });
      const started = Date.now();
      await expect(verifier.verify(await idToken({}, { key, issuer }))).resolves.toBeNull();
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await close(silent);
    }
  });

  it('refuses the token when the JWKS endpoint answers with an error', async () => {
    const failing = createServer((_req, res) => res.writeHead(500).end('{}'));
    const port = await listen(failing);
    try {
      const verifier = new JoseIdTokenVerifier([{ issuer, jwksUri: `http://127.0.0.1:${port}/jwks`, audience: 'lnk-web' }]);
      await expect(verifier.verify(await idToken({}, { key, issuer }))).resolves.toBeNull();
    } finally {
      await close(failing);
    }
  });
});

describe('JoseIdTokenVerifier configuration', () => {
  it('refuses a provider whose JWKS URI is not an absolute http(s) URL', () => {
    expect(() => new JoseIdTokenVerifier([{ issuer: 'https://idp.test', jwksUri: '/jwks', audience: 'lnk-web' }])).toThrow(
      /absolute http\(s\) URL/,
    );
    expect(() => new JoseIdTokenVerifier([{ issuer: 'https://idp.test', jwksUri: 'file:///etc/jwks.json', audience: 'lnk-web' }])).toThrow(
      /absolute http\(s\) URL/,
    );
  });

  it('refuses every token when no provider is configured', async () => {
    const key = await signingKey('k1');
    await expect(new JoseIdTokenVerifier([]).verify(await idToken({}, { key, issuer: 'https://idp.test' }))).resolves.toBeNull();
  });
});
