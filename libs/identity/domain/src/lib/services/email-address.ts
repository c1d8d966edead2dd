import { Clock } from '@lnk/shared/kernel';
import { maskEmail } from '../model/email';
import { isReleasedEmail } from '../model/user.entity';
import { Mailer } from '../ports/mailer';
import { UserRepository } from '../ports/user.repository';

/**
 * An unverified address reserves nothing against someone who proves it (through an identity provider,
 * or the operator vouching for it). Against a mere request for it by another account it holds: that
 * request proves no more than the holder's did.
 */
export class AddressClaims {
  constructor(
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Frees `email` for the claimant (null: an account about to be made): an account holding it without
   * proof gives it up (`User.releaseEmail`), and with it the links mailed to it (they prove only the
   * account's current address). False, changing nothing, when a verified account other than the
   * claimant's holds it.
   */
  async claim(email: string, claimantId: string | null): Promise<boolean> {
    const holder = await this.users.findByEmail(email);
    if (!holder || holder.id === claimantId) return true;
    if (holder.isVerified) return false;
    holder.releaseEmail(this.clock.now());
    await this.users.update(holder);
    return true;
  }
}

/** Mail about an account's address that carries no link: a warning to the mailbox the account leaves. */
export class AddressNotices {
  constructor(private readonly mailer: Mailer) {}

  /** To the address the account had: it signs in with the new one from now on. */
  async changed(previousEmail: string, newEmail: string): Promise<void> {
    if (isReleasedEmail(previousEmail)) return;
    await this.mailer.send({
      to: previousEmail,
      subject: 'The e-mail address of your account was changed',
      text:
        `The e-mail address of your account was changed to ${maskEmail(newEmail)}. ` +
        `The account signs in with the new address from now on; this address no longer does.\n\n` +
        `If you did not make this change, someone who knows your password, or has a recent sign-in of yours, is using your account: ` +
        `ask the operator of this service to secure it.`,
    });
  }
}
