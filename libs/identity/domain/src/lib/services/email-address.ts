import { Clock } from '@lnk/shared/kernel';
import { maskEmail } from '../model/email';
import { isReleasedEmail } from '../model/user.entity';
import { Mailer } from '../ports/mailer';
import { PendingEmailChanges } from '../ports/pending-email-changes';
import { UserRepository } from '../ports/user.repository';

/**
 * An unverified address reserves nothing against someone who proves it (through an identity provider,
 * a verification link, or the operator vouching for it).
 */
export class AddressClaims {
  constructor(
    private readonly users: UserRepository,
    private readonly pending: PendingEmailChanges,
    private readonly clock: Clock,
  ) {}

  /**
   * Frees `email` for the claimant (null: an account about to be made): an account holding it without
   * proof gives it up (`User.releaseEmail`) and other accounts' requests for it are withdrawn. False,
   * changing nothing, when a verified account other than the claimant's holds it.
   */
  async claim(email: string, claimantId: string | null): Promise<boolean> {
    const now = this.clock.now();
    const holder = await this.users.findByEmail(email);
    if (holder && holder.id !== claimantId) {
      if (holder.isVerified) return false;
      holder.releaseEmail(now);
      await this.users.update(holder);
    }
    await this.pending.withdrawAll(email, claimantId, now);
    return true;
  }
}

/** Mail about an account's address that carries no link: warnings to the people who own the mailboxes. */
export class AddressNotices {
  constructor(private readonly mailer: Mailer) {}

  /** To the address the account signs in with: someone (a stolen token, perhaps) asked to move it. */
  async changeRequested(currentEmail: string, requestedEmail: string): Promise<void> {
    if (isReleasedEmail(currentEmail)) return;
    await this.mailer.send({
      to: currentEmail,
      subject: 'A change of your e-mail address was requested',
      text:
        `Someone asked to change the e-mail address of your account to ${maskEmail(requestedEmail)}. ` +
        `The change takes effect only once it is confirmed from that mailbox; until then you sign in with this address.\n\n` +
        `If you did not ask for this, change your password and revoke your access tokens.`,
    });
  }

  /**
   * To an address that is already the verified address of an account, when another account asks for
   * it: the asker is answered as for any address, and only the mailbox's owner learns of it.
   */
  async addressInUse(email: string): Promise<void> {
    await this.mailer.send({
      to: email,
      subject: 'Someone tried to use your e-mail address',
      text:
        `Someone asked to use this address for another account. It already belongs to your account, so nothing was changed.\n\n` +
        `If that was you, sign in with this address instead. If it was not, you can ignore this message.`,
    });
  }
}
