import { Clock, found, PasswordHasher, UnitOfWork } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { checkNewPassword, User } from '../model/user.entity';
import { RevocationListener } from '../ports/revocation-listener';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';

/*
 * An operator's use case: what the operator (the CLI on the server, who holds the database) does to
 * accounts. No HTTP route reaches it: it takes no Principal because the operator vouches for what it asks.
 */

/**
 * The operator sets an account's password (a forgotten one, or one that leaked). As with a change by
 * the user, every session ends and every personal access token of the account is revoked: whoever had
 * the old password may have made tokens with it. No current password is asked: the operator vouches.
 */
export class SetPasswordByOperatorUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly tokens: OAuthTokenRepository,
    private readonly pats: PersonalAccessTokenRepository,
    private readonly revocations: RevocationListener,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(email: string, newPassword: string): Promise<User> {
    const password = checkNewPassword(newPassword);
    const user = found(await this.users.findByEmail(normalizeEmail(email)), `User ${email}`);
    const now = this.clock.now();
    user.changePasswordHash(await this.passwords.hash(password), now);
    await this.unitOfWork.run(async () => {
      await this.users.update(user);
      await this.tokens.revokeAllOfUser(user.id, now);
      await this.pats.deleteAllOfUser(user.id);
    });
    this.revocations.tokensRevoked();
    return user;
  }
}
