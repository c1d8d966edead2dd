import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { TOKEN_BYTES } from '../model/tokens';
import { User } from '../model/user.entity';
import { EmailVerificationRepository } from '../ports/account.repositories';
import { Mailer } from '../ports/mailer';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';

export const EMAIL_VERIFICATION_HOURS = 24;

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
