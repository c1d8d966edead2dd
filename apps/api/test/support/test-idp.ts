import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from 'jose';

/** What an ID token may be made with other than the provider's own: to test the checks that refuse it. */
export interface IdTokenOptions {
  sub: string;
  key?: CryptoKey;
  aud?: string;
  iss?: string;
  exp?: string | number;
}

/** An OpenID Connect provider of a test's own: an RS256 key, its JWKS served on loopback, and ID tokens it signs. */
export interface TestIdp {
  /** IDP_PROVIDERS naming this provider, for the app's environment. */
  providers: string;
  idToken(claims: Record<string, unknown>, options: IdTokenOptions): Promise<string>;
  close(): Promise<void>;
}

export async function startTestIdp(): Promise<TestIdp> {
  const issuer = 'https://accounts.idp.test';
  const audience = 'lnk-web';
  const pair = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const jwks = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const jwksUri = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
  return {
    providers: JSON.stringify([{ issuer, jwksUri, audience }]),
    idToken: (claims, options) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(options.iss ?? issuer)
        .setAudience(options.aud ?? audience)
        .setSubject(options.sub)
        .setIssuedAt()
        .setExpirationTime(options.exp ?? '5m')
        .sign(options.key ?? (pair.privateKey as CryptoKey)),
    close: () => new Promise<void>((resolve) => jwks.close(() => resolve())),
  };
}
