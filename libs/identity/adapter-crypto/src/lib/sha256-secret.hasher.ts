import { createHash, timingSafeEqual } from 'node:crypto';
import { SecretHasher } from '@lnk/identity/domain';

export class Sha256SecretHasher extends SecretHasher {
  hash(secret: string): string {
    return createHash('sha256').update(secret, 'utf8').digest('hex');
  }

  matches(secret: string, hash: string): boolean {
    const actual = Buffer.from(this.hash(secret), 'hex');
    const expected = Buffer.from(hash, 'hex');
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
