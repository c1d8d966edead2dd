import { Clock, ValidationError } from '@lnk/shared/kernel';
import { User } from '../model/user.entity';
import { EmailVerificationRepository } from '../ports/account.repositories';
import { SecretHasher } from '../ports/secret-hasher';
import { UserRepository } from '../ports/user.repository';

/** The same words whatever the reason: unknown, used, expired, or for an address the account has left. */
export const invalidVerificationLink = () => ValidationError.field('token', 'the verification link is invalid, used or expired');

/** A token as a link carries it: anything else is refused before a lookup. */
export function verificationToken(token: string | undefined): string {
  if (!token || token.length > 256) throw invalidVerificationLink();
  return token;
}

/**
 * Confirms an address with the token of the link mailed to it: what the page that link opens posts
 * (opening the link changes nothing, so a mail scanner that fetches it confirms nothing). The token is
 * used once, and confirms only the address the account has now.
 */
export class VerifyEmailUseCase {
  constructor(
    private readonly verifications: EmailVerificationRepository,
    private readonly users: UserRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  async execute(token: string | undefined): Promise<User> {
    const hash = this.hasher.hash(verificationToken(token));
    const now = this.clock.now();
    const verification = await this.verifications.consume(hash, now);
    if (!verification) throw invalidVerificationLink();
    const user = await this.users.findById(verification.userId);
    if (!user || !user.confirmEmail(verification.email, now)) throw invalidVerificationLink();
    await this.users.update(user);
    return user;
  }
}
