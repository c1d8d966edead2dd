import { createRemoteJWKSet, decodeJwt, jwtVerify, JWTPayload } from 'jose';
import { IdTokenVerifier, VerifiedIdentity } from '@lnk/identity/domain';
import { assertJwksUri, IdpProvider } from './idp-providers';

export interface JoseIdTokenVerifierOptions {
  /** Longest wait for a provider's JWKS endpoint; past it the token is refused. */
  jwksTimeoutMs?: number;
  /** Least time between two JWKS fetches triggered by an unknown `kid`, so forged kids cannot flood the provider. */
  jwksCooldownMs?: number;
  /** Allowed clock skew with the provider for `exp`, `nbf` and `iat`, in seconds. */
  clockToleranceSeconds?: number;
}

// Asymmetric only: with HS* a token could be "signed" with a public key taken for a shared secret, and
// `none` is no signature at all.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];

interface Trusted {
  provider: IdpProvider;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

/**
 * Verifies OpenID Connect ID tokens with `jose` against the configured providers' JWKS. One remote key
 * set per provider lives as long as the verifier: jose caches its keys and refetches on an unknown `kid`,
 * which is how a provider's key rotation is picked up.
 */
export class JoseIdTokenVerifier extends IdTokenVerifier {
  private readonly byIssuer = new Map<string, Trusted>();
  private readonly clockTolerance: number;

  constructor(providers: IdpProvider[], options: JoseIdTokenVerifierOptions = {}) {
    super();
    this.clockTolerance = options.clockToleranceSeconds ?? 30;
    for (const provider of providers) {
      assertJwksUri(provider.jwksUri, `the JWKS URI of ${provider.issuer}`);
      const keys = createRemoteJWKSet(new URL(provider.jwksUri), {
        timeoutDuration: options.jwksTimeoutMs ?? 5000,
        cooldownDuration: options.jwksCooldownMs ?? 30_000,
      });
      this.byIssuer.set(provider.issuer, { provider, keys });
    }
  }

  async verify(idToken: string): Promise<VerifiedIdentity | null> {
    if (typeof idToken !== 'string' || idToken === '') return null;
    try {
      // The unverified issuer only chooses whose keys to check against; jwtVerify then checks it for real.
      const { iss } = decodeJwt(idToken);
      const trusted = typeof iss === 'string' ? this.byIssuer.get(iss) : undefined;
      if (!trusted) return null;
      const { payload } = await jwtVerify(idToken, trusted.keys, {
        issuer: trusted.provider.issuer,
        audience: trusted.provider.audience,
        algorithms: ALGORITHMS,
        clockTolerance: this.clockTolerance,
        requiredClaims: ['exp', 'sub'],
      });
      return toIdentity(trusted.provider.issuer, payload);
    } catch {
      // Malformed, forged, expired, for another audience, or the key set could not be fetched: all refusals.
      return null;
    }
  }
}

function toIdentity(issuer: string, payload: JWTPayload): VerifiedIdentity | null {
  const { sub, email, email_verified: emailVerified, name } = payload;
  if (typeof sub !== 'string' || sub === '') return null;
  if (typeof email !== 'string' || email.trim() === '') return null;
  // Some providers send the flag as the string "true".
  if (emailVerified !== true && emailVerified !== 'true') return null;
  const identity: VerifiedIdentity = { issuer, subject: sub, email: email.trim().toLowerCase(), emailVerified: true };
  if (typeof name === 'string' && name !== '') identity.name = name;
  return identity;
}
