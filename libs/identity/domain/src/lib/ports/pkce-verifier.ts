/** Checks a PKCE code verifier against the challenge made from it (RFC 7636, S256). */
export abstract class PkceVerifier {
  abstract matches(codeVerifier: string, codeChallenge: string): boolean;
}
