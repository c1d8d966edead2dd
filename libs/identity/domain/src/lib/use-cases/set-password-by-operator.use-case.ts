import { Clock, found, PasswordHasher, UnitOfWork } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { checkNewPassword, User } from '../model/user.entity';
import { RevocationListener } from '../ports/revocation-listener';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';

/** What an operator's password reset needs: the account, the hasher, and every token it revokes. */
export interface OperatorPasswordReset {
  users: UserRepository;
  passwords: PasswordHasher;
  tokens: OAuthTokenRepository;
  pats: PersonalAccessTokenRepository;
  revocations: RevocationListener;
  unitOfWork: UnitOfWork;
  clock: Clock;
}

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
  constructor(private readonly deps: OperatorPasswordReset) {}

  async execute(email: string, newPassword: string): Promise<User> {
    const password = checkNewPassword(newPassword);
    const user = found(await this.deps.users.findByEmail(normalizeEmail(email)), `User ${email}`);
    const now = this.deps.clock.now();
    user.changePasswordHash(await this.deps.passwords.hash(password), now);
    await this.deps.unitOfWork.run(async () => {
      await this.deps.users.update(user);
      await this.deps.tokens.revokeAllOfUser(user.id, now);
      await this.deps.pats.deleteAllOfUser(user.id);
    });
    this.deps.revocations.tokensRevoked();
    return user;
  }
}
