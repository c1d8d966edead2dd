import { Clock, RateLimitedError, ValidationError } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { EmailVerificationRepository } from '../ports/account.repositories';
import { EmailChangeLog } from '../ports/email-change-log';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';
import { AddressNotices } from '../services/email-address';
import { EmailVerificationSender } from '../services/email-verification-sender';
import { OwnerProof, Reauthentication } from '../services/reauthentication';

/** How many e-mail changes an account may ask for in an hour: each one mails two addresses. */
export const EMAIL_CHANGES_PER_HOUR = 5;

export interface ChangeEmailDeps {
  users: UserRepository;
  verifications: EmailVerificationRepository;
  verification: EmailVerificationSender;
  notices: AddressNotices;
  log: EmailChangeLog;
  clock: Clock;
  reauthentication: Reauthentication;
}

const inUse = () => ValidationError.field('email', 'email is already used by another account');

/**
 * Moves the account to a new address (spec section 3): stored at once as its address and sign-in name,
 * unverified until the link mailed to it is confirmed; the old address is told. An address another
 * account uses is refused, also when that account has not verified it: a request proves nothing, so it
 * cannot take an address from another request (only a proof does: an identity provider's, or the
 * operator's). What the refusal reveals is bounded by the fresh sign-in it needs and by the hourly
 * limit, which refused requests count against too.
 */
export class ChangeEmailUseCase {
  constructor(private readonly deps: ChangeEmailDeps) {}

  async execute(principal: Principal, email: string, proof: OwnerProof): Promise<User> {
    const { users, verifications, verification, notices, clock, reauthentication } = this.deps;
    const user = await currentUser(users, principal);
    // Before anything else: a token without a fresh sign-in (or the password) learns and changes nothing.
    await reauthentication.confirm(user, principal, proof);
    const normalized = normalizeEmail(email);
    const now = clock.now();
    await this.admit(user.id, now);
    if (normalized === user.email) {
      // The account's own address again: an unproven one gets a fresh link.
      if (!user.isVerified) await verification.send(user);
      return user;
    }
    if (await users.findByEmail(normalized)) throw inUse();
    const previous = user.email;
    user.changeEmail(normalized, now);
    try {
      await users.update(user);
    } catch (error) {
      // Taken by another account a moment ago.
      if (error instanceof ValidationError) throw inUse();
      throw error;
    }
    // Links mailed to the address it left prove nothing about the one it has now.
    await verifications.withdrawAll(user.id, now);
    await verification.send(user);
    await notices.changed(previous, normalized);
    return user;
  }

  private async admit(userId: string, now: Date): Promise<void> {
    const { log } = this.deps;
    const { count, oldest } = await log.since(userId, new Date(now.getTime() - 3600_000));
    if (count >= EMAIL_CHANGES_PER_HOUR && oldest) {
      throw new RateLimitedError(Math.max(1, Math.ceil((oldest.getTime() + 3600_000 - now.getTime()) / 1000)));
    }
    await log.record(userId, now);
  }
}
