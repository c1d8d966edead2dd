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
 * The account a verification (found or consumed by a link's token) is for, if `holds` of it and the address
 * verified; else the one refusal, whatever the reason (no such verification, no such account, another address).
 */
export async function accountOfVerification(
  users: UserRepository,
  verification: { userId: string; email: string } | null,
  holds: (user: User, email: string) => boolean,
): Promise<User> {
  const user = verification && (await users.findById(verification.userId));
  if (!verification || !user || !holds(user, verification.email)) throw invalidVerificationLink();
  return user;
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
    const user = await accountOfVerification(this.users, await this.verifications.consume(hash, now), (account, email) =>
      account.confirmEmail(email, now),
    );
    await this.users.update(user);
    return user;
  }
}
