import { User } from '../model/user.entity';
import { BackupCodeRepository } from '../ports/account.repositories';
import { SecretBox } from '../ports/secret-box';
import { SecretHasher } from '../ports/secret-hasher';
import { TotpService, TwoFactorStateRepository } from '../ports/two-factor';
import { Clock } from '@lnk/shared/kernel';

/** Backup codes are typed by people: compare them without case, spaces or dashes. */
export function normalizeBackupCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** What checking a second factor needs: the TOTP secret (sealed), the backup codes, and the attempts state. */
export interface SecondFactorChecks {
  totp: TotpService;
  box: SecretBox;
  backupCodes: BackupCodeRepository;
  hasher: SecretHasher;
  clock: Clock;
  states: TwoFactorStateRepository;
}

/**
 * Checks a second factor: a current TOTP code not used before (each 30-second step is accepted once, so
 * a code seen over a shoulder or in a log cannot be replayed within its window), or an unused backup
 * code (used up by this check).
 */
export class SecondFactor {
  constructor(private readonly deps: SecondFactorChecks) {}

  async verify(user: User, code: string | undefined): Promise<boolean> {
    if (!user.twoFactorSecret || !code || typeof code !== 'string' || code.length > 64) return false;
    const secret = this.deps.box.open(user.twoFactorSecret);
    const step = secret ? this.deps.totp.verify(secret, code) : null;
    if (step !== null) return this.deps.states.useStep(user.id, step);
    const normalized = normalizeBackupCode(code);
    if (normalized.length < 8) return false;
    return this.deps.backupCodes.consume(user.id, this.deps.hasher.hash(normalized), this.deps.clock.now());
  }
}
