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

/**
 * Checks a second factor: a current TOTP code not used before (each 30-second step is accepted once, so
 * a code seen over a shoulder or in a log cannot be replayed within its window), or an unused backup
 * code (used up by this check).
 */
export class SecondFactor {
  constructor(
    private readonly totp: TotpService,
    private readonly box: SecretBox,
    private readonly backupCodes: BackupCodeRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
    private readonly states: TwoFactorStateRepository,
  ) {}

  async verify(user: User, code: string | undefined): Promise<boolean> {
    if (!user.twoFactorSecret || !code || typeof code !== 'string' || code.length > 64) return false;
    const secret = this.box.open(user.twoFactorSecret);
    const step = secret ? this.totp.verify(secret, code) : null;
    if (step !== null) return this.states.useStep(user.id, step);
    const normalized = normalizeBackupCode(code);
    if (normalized.length < 8) return false;
    return this.backupCodes.consume(user.id, this.hasher.hash(normalized), this.clock.now());
  }
}
