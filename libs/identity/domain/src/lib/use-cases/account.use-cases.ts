import { Clock, IdGenerator, NotFoundError, RateLimitedError, UnauthorizedError, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { Principal, TOKEN_BYTES } from '../model/tokens';
import { checkNewPassword, User } from '../model/user.entity';
import { AccountDataEraser, AfterAccountDeleted } from '../ports/account-data-eraser';
import { BackupCodeRepository, EmailVerificationRepository } from '../ports/account.repositories';
import { EmailChangeLog } from '../ports/email-change-log';
import { Mailer } from '../ports/mailer';
import { PasswordHasher } from '@lnk/shared/kernel';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretBox } from '../ports/secret-box';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { TotpService, TwoFactorStateRepository } from '../ports/two-factor';
import { UserRepository } from '../ports/user.repository';
import { AddressClaims, AddressNotices } from './email-address';
import { OwnerProof, Reauthentication } from './reauthentication';
import { SecondFactor } from './second-factor';

export const EMAIL_VERIFICATION_HOURS = 24;
export const BACKUP_CODE_COUNT = 10;

async function currentUser(users: UserRepository, principal: Principal): Promise<User> {
  const user = await users.findById(principal.userId);
  // The token outlived its account (deleted a moment ago): it no longer authenticates anyone.
  if (!user || !user.isActive) throw new UnauthorizedError();
  return user;
}

export class GetCurrentUserUseCase {
  constructor(private readonly users: UserRepository) {}

  execute(principal: Principal): Promise<User> {
    return currentUser(this.users, principal);
  }
}

/** Sends a single-use link that proves the user reads mail at their address; only its hash is kept. */
export class EmailVerificationSender {
  constructor(
    private readonly verifications: EmailVerificationRepository,
    private readonly mailer: Mailer,
    private readonly secrets: SecretGenerator,
    private readonly hasher: SecretHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly verifyUrl: (token: string) => string,
  ) {}

  /** To `email`: the address the user asked to move to, or (by default) the one they sign in with. */
  async send(user: User, email = user.email): Promise<void> {
    const token = this.secrets.generate(TOKEN_BYTES);
    const now = this.clock.now();
    await this.verifications.insert({
      id: this.ids.next(),
      userId: user.id,
      email,
      tokenHash: this.hasher.hash(token),
      expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_HOURS * 3600_000),
      createdAt: now,
    });
    await this.mailer.send({
      to: email,
      subject: 'Confirm your e-mail address',
      text: `Follow this link within ${EMAIL_VERIFICATION_HOURS} hours to confirm your address:\n\n${this.verifyUrl(token)}\n\nIf you did not ask for this, ignore this message.`,
    });
  }
}

/** How many e-mail changes an account may ask for in an hour: each one mails two addresses. */
export const EMAIL_CHANGES_PER_HOUR = 5;

/**
 * Asks to move the account to a new address. The new address shows at once (unverified) but signs in
 * only after the link mailed to it is followed, so a token that may write the account cannot take an
 * address, or the account, by changing it. The answer is the same whether or not another account
 * already holds the address: a verified holder is told by mail instead of the asker. The current
 * address is told of every request.
 */
export class ChangeEmailUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly verification: EmailVerificationSender,
    private readonly notices: AddressNotices,
    private readonly log: EmailChangeLog,
    private readonly clock: Clock,
    private readonly reauthentication: Reauthentication,
  ) {}

  async execute(principal: Principal, email: string, proof: OwnerProof): Promise<User> {
    const user = await currentUser(this.users, principal);
    // Before anything else: a token without a fresh sign-in (or the password) learns and changes nothing.
    await this.reauthentication.confirm(user, principal, proof);
    const normalized = normalizeEmail(email);
    const now = this.clock.now();
    await this.admit(user.id, now);
    user.requestEmailChange(normalized, now);
    await this.users.update(user);
    if (normalized === user.email) {
      // Back to the current address: the pending change is withdrawn; an unproven address gets a link.
      if (!user.isVerified) await this.verification.send(user);
      return user;
    }
    const holder = await this.users.findByEmail(normalized);
    if (holder?.isVerified) await this.notices.addressInUse(normalized);
    else await this.verification.send(user, normalized);
    await this.notices.changeRequested(user.email, normalized);
    return user;
  }

  private async admit(userId: string, now: Date): Promise<void> {
    const { count, oldest } = await this.log.since(userId, new Date(now.getTime() - 3600_000));
    if (count >= EMAIL_CHANGES_PER_HOUR && oldest) {
      throw new RateLimitedError(Math.max(1, Math.ceil((oldest.getTime() + 3600_000 - now.getTime()) / 1000)));
    }
    await this.log.record(userId, now);
  }
}

/**
 * Follows a verification link: the address it was sent to, if the account still asks for it (or still
 * signs in with it), becomes the account's verified address. Proving the address takes it from an
 * account that holds it unverified; an account that has verified it keeps it.
 */
export class VerifyEmailUseCase {
  constructor(
    private readonly verifications: EmailVerificationRepository,
    private readonly users: UserRepository,
    private readonly hasher: SecretHasher,
    private readonly claims: AddressClaims,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(token: string | undefined): Promise<User> {
    const invalid = () => ValidationError.field('token', 'the verification link is invalid, used or expired');
    if (!token || token.length > 256) throw invalid();
    const now = this.clock.now();
    const verification = await this.verifications.consume(this.hasher.hash(token), now);
    if (!verification) throw invalid();
    return this.unitOfWork.run(async () => {
      const user = await this.users.findById(verification.userId);
      if (!user || !user.confirmEmail(verification.email, now)) throw invalid();
      if (!(await this.claims.claim(verification.email, user.id))) throw invalid();
      try {
        await this.users.update(user);
      } catch (error) {
        // Taken by another account a moment ago.
        if (error instanceof ValidationError) throw invalid();
        throw error;
      }
      return user;
    });
  }
}

/**
 * A new password, after the current one (guesses counted by the login throttle); every other session
 * ends, and every personal access token of the account is revoked: a password changed because it leaked
 * must not leave behind the long-lived tokens whoever had it may have made.
 */
export class ChangePasswordUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly tokens: OAuthTokenRepository,
    private readonly revocations: RevocationListener,
    private readonly clock: Clock,
    private readonly reauthentication: Reauthentication,
    private readonly pats: PersonalAccessTokenRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(principal: Principal, currentPassword: string, newPassword: string, ip: string): Promise<User> {
    const user = await currentUser(this.users, principal);
    await this.reauthentication.checkPassword(user, currentPassword, ip);
    checkNewPassword(newPassword, 'newPassword');
    if (currentPassword === newPassword) throw ValidationError.field('newPassword', 'the new password must differ from the current one');
    const now = this.clock.now();
    user.changePasswordHash(await this.passwords.hash(newPassword), now);
    await this.unitOfWork.run(async () => {
      await this.users.update(user);
      await this.tokens.revokeAllOfUser(user.id, now, principal.via === 'oauth' ? principal.tokenId : undefined);
      await this.pats.deleteAllOfUser(user.id);
    });
    this.revocations.tokensRevoked();
    return user;
  }
}

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

/**
 * Puts a pending enrolment in force with a current code from the new secret: proof that the owner's
 * authenticator holds it, so turning two-factor on cannot lock anyone out. No fresh sign-in is asked
 * for: only the caller of enable-twofactor, which needs one, was shown the secret. Wrong codes count with
 * the login throttle, and the code's step is used up (it cannot sign in a second time).
 */
export class ConfirmTwoFactorUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly totp: TotpService,
    private readonly box: SecretBox,
    private readonly states: TwoFactorStateRepository,
    private readonly reauthentication: Reauthentication,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, command: { code: string; ip: string }): Promise<User> {
    const user = await currentUser(this.users, principal);
    if (user.isTwoFactorEnabled) throw ValidationError.field('code', 'two-factor sign-in is already on');
    const sealed = await this.states.findPending(user.id);
    const secret = sealed ? this.box.open(sealed) : null;
    if (!sealed || !secret) throw ValidationError.field('code', 'no two-factor enrolment awaits confirmation: start one with POST /user/me/enable-twofactor');
    const right = await this.reauthentication.throttled(user, command.ip, async () => {
      const step = this.totp.verify(secret, command.code);
      return step !== null && (await this.states.useStep(user.id, step));
    });
    if (!right) throw ValidationError.field('code', 'the one-time code is not valid for the new secret, or was used already');
    user.enableTwoFactor(sealed, this.clock.now());
    await this.unitOfWork.run(async () => {
      // Taken once: a confirmation racing with a new enrolment cannot put a replaced secret in force.
      if (!(await this.states.deletePending(user.id, sealed))) throw ValidationError.field('code', 'the enrolment changed meanwhile: start again');
      await this.users.update(user);
    });
    return user;
  }
}

/**
 * Deletes the account and everything it owns, in every context, in one transaction, after a fresh sign-in
 * or the password. What must not happen unless the deletion commits (a payment provider's cancellation)
 * runs after it, and cannot undo it.
 */
export class DeleteAccountUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly eraser: AccountDataEraser,
    private readonly unitOfWork: UnitOfWork,
    private readonly revocations: RevocationListener,
    private readonly clock: Clock,
    private readonly reauthentication: Reauthentication,
  ) {}

  async execute(principal: Principal, proof: OwnerProof): Promise<Date> {
    await this.reauthentication.confirm(await currentUser(this.users, principal), principal, proof);
    const deletedAt = this.clock.now();
    const afterCommit: AfterAccountDeleted[] = await this.unitOfWork.run(async () => {
      const pending = await this.eraser.eraseAccountData(principal.userId);
      if (!(await this.users.delete(principal.userId))) throw new NotFoundError('User');
      return pending;
    });
    this.revocations.tokensRevoked();
    for (const work of afterCommit) await work();
    return deletedAt;
  }
}
