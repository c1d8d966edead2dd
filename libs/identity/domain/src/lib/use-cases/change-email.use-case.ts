import { Clock, RateLimitedError } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { EmailChangeLog } from '../ports/email-change-log';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';
import { AddressNotices } from '../services/email-address';
import { EmailVerificationSender } from '../services/email-verification-sender';
import { OwnerProof, Reauthentication } from '../services/reauthentication';

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
