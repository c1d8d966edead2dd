import { Clock, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { User } from '../model/user.entity';
import { EmailVerificationRepository } from '../ports/account.repositories';
import { SecretHasher } from '../ports/secret-hasher';
import { UserRepository } from '../ports/user.repository';
import { AddressClaims } from '../services/email-address';

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
