import { randomBytes } from 'node:crypto';
import { ChallengeGenerator } from '@lnk/domains/domain';

/** 128 random bits from the CSPRNG as 32 lowercase hex characters: nothing a DNS provider's form rewrites. */
export class CryptoChallengeGenerator extends ChallengeGenerator {
  next(): string {
    return randomBytes(16).toString('hex');
  }
}
