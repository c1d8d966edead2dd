/**
 * Reversible encryption for secrets the service must read back (a TOTP secret is needed to check
 * codes, so it cannot be hashed): authenticated encryption under a key from configuration.
 */
export abstract class SecretBox {
  abstract seal(plain: string): string;
  /** Null when the sealed value was tampered with or made under another key. */
  abstract open(sealed: string): string | null;
}
