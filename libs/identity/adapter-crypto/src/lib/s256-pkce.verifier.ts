import { createHash, timingSafeEqual } from 'node:crypto';
import { PkceVerifier } from '@lnk/identity/domain';

/** RFC 7636 S256: the challenge is BASE64URL(SHA256(verifier)). */
export class S256PkceVerifier extends PkceVerifier {
  matches(codeVerifier: string, codeChallenge: string): boolean {
    const actual = Buffer.from(createHash('sha256').update(codeVerifier, 'ascii').digest('base64url'));
    const expected = Buffer.from(codeChallenge);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
