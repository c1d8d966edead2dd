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

export type TwoFactorChange = { enabled: true; qrCode: string; secret: string; backupCodes: string[] } | { enabled: false };

export interface SetTwoFactorCommand extends OwnerProof {
  enable: boolean;
  /** To turn it off: a current one-time code or an unused backup code. */
  code?: string;
}

/**
 * What turning two-factor sign-in on or off needs: the account, the TOTP secret (sealed), the backup codes, the second factor, and the
 * reauthentication.
 */
export interface TwoFactorSetup {
  users: UserRepository;
  totp: TotpService;
  box: SecretBox;
  backupCodes: BackupCodeRepository;
  secondFactor: SecondFactor;
  secrets: SecretGenerator;
  hasher: SecretHasher;
  unitOfWork: UnitOfWork;
  clock: Clock;
  reauthentication: Reauthentication;
  states: TwoFactorStateRepository;
}

/**
 * Starts a two-factor enrolment (a TOTP secret and ten single-use backup codes, not in force until a code
 * confirms it: see ConfirmTwoFactorUseCase) or turns two-factor sign-in off (with a valid code). Both need
 * a fresh sign-in or the password: otherwise whoever holds a token could lock the owner out, or strip
 * the account of its second factor.
 */
export class SetTwoFactorUseCase {
  constructor(private readonly deps: TwoFactorSetup) {}

  async execute(principal: Principal, command: SetTwoFactorCommand): Promise<TwoFactorChange> {
    const user = await currentUser(this.deps.users, principal);
    const now = this.deps.clock.now();
    if (!command.enable) {
      const pending = !user.isTwoFactorEnabled && (await this.deps.states.findPending(user.id)) !== null;
      if (!user.isTwoFactorEnabled && !pending) return { enabled: false };
      await this.deps.reauthentication.confirm(user, principal, command);
      if (pending) {
        // Nothing in force yet: the enrolment is dropped, no code needed.
        await this.deps.unitOfWork.run(async () => {
          await this.deps.states.deletePending(user.id);
          await this.deps.backupCodes.deleteAll(user.id);
        });
        return { enabled: false };
      }
      const valid = await this.deps.reauthentication.throttled(user, command.ip, () => this.deps.secondFactor.verify(user, command.code));
      if (!valid) throw ValidationError.field('code', 'a valid one-time code or backup code is required');
      user.disableTwoFactor(now);
      await this.deps.unitOfWork.run(async () => {
        await this.deps.users.update(user);
        await this.deps.backupCodes.deleteAll(user.id);
      });
      return { enabled: false };
    }
    if (user.isTwoFactorEnabled) throw ValidationError.field('enable', 'two-factor sign-in is already on; turn it off first');
    await this.deps.reauthentication.confirm(user, principal, command);
    const enrolment = await this.deps.totp.enrol(user.email);
    const backupCodes = Array.from({ length: BACKUP_CODE_COUNT }, () => this.backupCode());
    // Pending until confirmed: sign-in does not ask for a code, and the backup codes count for nothing
    // until the secret is in force. Enrolling again replaces both.
    await this.deps.unitOfWork.run(async () => {
      await this.deps.states.savePending(user.id, this.deps.box.seal(enrolment.secret), now);
      await this.deps.backupCodes.replace(
        user.id,
        backupCodes.map((c) => this.deps.hasher.hash(c.replace(/-/g, ''))),
      );
    });
    return { enabled: true, qrCode: enrolment.qrCodeDataUri, secret: enrolment.secret, backupCodes };
  }

  /** 16 characters of Crockford-like base32 (80 bits), shown as XXXX-XXXX-XXXX-XXXX. */
  private backupCode(): string {
    const alphabet = 'ABCDEFGHJKMNPQRSTVWXYZ0123456789';
    const raw = this.deps.secrets.generate(16);
    let code = '';
    for (let i = 0; i < 16; i++) code += alphabet[raw.charCodeAt(i) % 32];
    return (code.match(/.{4}/g) ?? []).join('-');
  }
}
