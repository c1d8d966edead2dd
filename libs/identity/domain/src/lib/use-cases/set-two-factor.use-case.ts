import { Clock, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { BackupCodeRepository } from '../ports/account.repositories';
import { SecretBox } from '../ports/secret-box';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { TotpService, TwoFactorStateRepository } from '../ports/two-factor';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';
import { OwnerProof, Reauthentication } from '../services/reauthentication';
import { SecondFactor } from '../services/second-factor';

export const BACKUP_CODE_COUNT = 10;

export type TwoFactorChange =
  | { enabled: true; qrCode: string; secret: string; backupCodes: string[] }
  | { enabled: false };

export interface SetTwoFactorCommand extends OwnerProof {
  enable: boolean;
  /** To turn it off: a current one-time code or an unused backup code. */
  code?: string;
}

/**
 * Starts a two-factor enrolment (a TOTP secret and ten single-use backup codes, not in force until a code
 * confirms it: see ConfirmTwoFactorUseCase) or turns two-factor sign-in off (with a valid code). Both need
 * a fresh sign-in or the password: otherwise whoever holds a token could lock the owner out, or strip
 * the account of its second factor.
 */
export class SetTwoFactorUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly totp: TotpService,
    private readonly box: SecretBox,
    private readonly backupCodes: BackupCodeRepository,
    private readonly secondFactor: SecondFactor,
    private readonly secrets: SecretGenerator,
    private readonly hasher: SecretHasher,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly reauthentication: Reauthentication,
    private readonly states: TwoFactorStateRepository,
  ) {}

  async execute(principal: Principal, command: SetTwoFactorCommand): Promise<TwoFactorChange> {
    const user = await currentUser(this.users, principal);
    const now = this.clock.now();
    if (!command.enable) {
      const pending = !user.isTwoFactorEnabled && (await this.states.findPending(user.id)) !== null;
      if (!user.isTwoFactorEnabled && !pending) return { enabled: false };
      await this.reauthentication.confirm(user, principal, command);
      if (pending) {
        // Nothing in force yet: the enrolment is dropped, no code needed.
        await this.unitOfWork.run(async () => {
          await this.states.deletePending(user.id);
          await this.backupCodes.deleteAll(user.id);
        });
        return { enabled: false };
      }
      const valid = await this.reauthentication.throttled(user, command.ip, () => this.secondFactor.verify(user, command.code));
      if (!valid) throw ValidationError.field('code', 'a valid one-time code or backup code is required');
      user.disableTwoFactor(now);
      await this.unitOfWork.run(async () => {
        await this.users.update(user);
        await this.backupCodes.deleteAll(user.id);
      });
      return { enabled: false };
    }
    if (user.isTwoFactorEnabled) throw ValidationError.field('enable', 'two-factor sign-in is already on; turn it off first');
    await this.reauthentication.confirm(user, principal, command);
    const enrolment = await this.totp.enrol(user.email);
    const backupCodes = Array.from({ length: BACKUP_CODE_COUNT }, () => this.backupCode());
    // Pending until confirmed: sign-in does not ask for a code, and the backup codes count for nothing
    // until the secret is in force. Enrolling again replaces both.
    await this.unitOfWork.run(async () => {
      await this.states.savePending(user.id, this.box.seal(enrolment.secret), now);
      await this.backupCodes.replace(user.id, backupCodes.map((c) => this.hasher.hash(c.replace(/-/g, ''))));
    });
    return { enabled: true, qrCode: enrolment.qrCodeDataUri, secret: enrolment.secret, backupCodes };
  }

  /** 16 characters of Crockford-like base32 (80 bits), shown as XXXX-XXXX-XXXX-XXXX. */
  private backupCode(): string {
    const alphabet = 'ABCDEFGHJKMNPQRSTVWXYZ0123456789';
    const raw = this.secrets.generate(16);
    let code = '';
    for (let i = 0; i < 16; i++) code += alphabet[raw.charCodeAt(i) % 32];
    return (code.match(/.{4}/g) ?? []).join('-');
  }
}
