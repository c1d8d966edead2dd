/** Unguessable values from a CSPRNG, URL-safe. */
export abstract class SecretGenerator {
  /** At least `bytes` random bytes, base64url-encoded. */
  abstract generate(bytes: number): string;
}
