/** The claims of a verified OpenID Connect ID token that sign-in needs. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name?: string;
}

/**
 * Verifies an identity provider's ID token: signature against the provider's JWKS, issuer, audience,
 * expiry. Resolves null when the token is not acceptable for any configured provider (bad signature,
 * expired, wrong audience, unknown issuer, malformed); never throws for a bad token.
 */
export abstract class IdTokenVerifier {
  abstract verify(idToken: string): Promise<VerifiedIdentity | null>;
}
