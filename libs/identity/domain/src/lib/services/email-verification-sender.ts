import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { TOKEN_BYTES } from '../model/tokens';
import { User } from '../model/user.entity';
import { EmailVerificationRepository } from '../ports/account.repositories';
import { Mailer } from '../ports/mailer';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';

export const EMAIL_VERIFICATION_HOURS = 24;

/**
 * What sending an address's verification needs: the pending verifications, the mailer, the secret and its hash, and the page the link
 * opens.
 */
export interface EmailVerificationSending {
  verifications: EmailVerificationRepository;
  mailer: Mailer;
  secrets: SecretGenerator;
  hasher: SecretHasher;
  ids: IdGenerator;
  clock: Clock;
  verifyUrl: (token: string) => string;
}

/**
 * Sends a single-use link that proves the user reads mail at the account's address; only its hash is
 * kept. The link opens a page whose button confirms (a mail scanner fetching the link confirms nothing),
 * and the mail says how to refuse, for the owner of a mailbox someone else typed in.
 */
export class EmailVerificationSender {
  constructor(private readonly deps: EmailVerificationSending) {}

  async send(user: User): Promise<void> {
    const token = this.deps.secrets.generate(TOKEN_BYTES);
    const now = this.deps.clock.now();
    await this.deps.verifications.insert({
      id: this.deps.ids.next(),
      userId: user.id,
      email: user.email,
      tokenHash: this.deps.hasher.hash(token),
      expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_HOURS * 3600_000),
      createdAt: now,
    });
    await this.deps.mailer.send({
      to: user.email,
      subject: 'Confirm your e-mail address',
      text:
        `An account asked to use this address (${user.email}) as its e-mail address and to sign in with it.\n\n` +
        `If it was you, open this link within ${EMAIL_VERIFICATION_HOURS} hours and press Confirm:\n\n${this.deps.verifyUrl(token)}\n\n` +
        `If it was not you, ignore this message: the address stays unconfirmed and the link expires. An unconfirmed address ` +
        `gives that account nothing: signing in with an identity provider that knows this address gives you an account of your own.`,
    });
  }
}
