import { Clock } from '@lnk/shared/kernel';
import { User } from '../model/user.entity';
import { EmailVerificationRepository } from '../ports/account.repositories';
import { SecretHasher } from '../ports/secret-hasher';
import { UserRepository } from '../ports/user.repository';
import { accountOfVerification, verificationToken } from './verify-email.use-case';

/**
 * What a verification link would confirm, for the page it opens: the account whose address it is, as
 * it is now. Reading it changes nothing, and the token stays usable.
 */
export class ViewEmailVerificationUseCase {
  constructor(
    private readonly verifications: EmailVerificationRepository,
    private readonly users: UserRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  async execute(token: string | undefined): Promise<User> {
    const verification = await this.verifications.find(this.hasher.hash(verificationToken(token)), this.clock.now());
    return accountOfVerification(this.users, verification, (account, email) => account.email === email);
  }
}
