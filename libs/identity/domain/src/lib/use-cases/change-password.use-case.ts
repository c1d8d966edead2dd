import { checkEach, Clock, PasswordHasher, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { checkNewPassword, User } from '../model/user.entity';
import { RevocationListener } from '../ports/revocation-listener';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';
import { Reauthentication } from '../services/reauthentication';

/** What changing a password needs: the account, the hasher, the reauthentication, and the tokens it revokes. */
export interface PasswordChange {
  users: UserRepository;
  passwords: PasswordHasher;
  tokens: OAuthTokenRepository;
  revocations: RevocationListener;
  clock: Clock;
  reauthentication: Reauthentication;
  pats: PersonalAccessTokenRepository;
  unitOfWork: UnitOfWork;
}

/**
 * A new password, after the current one (guesses counted by the login throttle); every other session
 * ends, and every personal access token of the account is revoked: a password changed because it leaked
 * must not leave behind the long-lived tokens whoever had it may have made.
 */
export class ChangePasswordUseCase {
  constructor(private readonly deps: PasswordChange) {}

  async execute(principal: Principal, currentPassword: string, newPassword: string, ip: string): Promise<User> {
    const user = await currentUser(this.deps.users, principal);
    try {
      await this.deps.reauthentication.checkPassword(user, currentPassword, ip);
    } catch (error) {
      // A wrong current password does not hide a new one of the wrong form: both are told at once.
      if (error instanceof ValidationError)
        checkEach(
          () => {
            throw error;
          },
          () => checkNewPassword(newPassword, 'newPassword'),
        );
      throw error;
    }
    checkNewPassword(newPassword, 'newPassword');
    if (currentPassword === newPassword) throw ValidationError.field('newPassword', 'the new password must differ from the current one');
    const now = this.deps.clock.now();
    user.changePasswordHash(await this.deps.passwords.hash(newPassword), now);
    await this.deps.unitOfWork.run(async () => {
      await this.deps.users.update(user);
      await this.deps.tokens.revokeAllOfUser(user.id, now, principal.via === 'oauth' ? principal.tokenId : undefined);
      await this.deps.pats.deleteAllOfUser(user.id);
    });
    this.deps.revocations.tokensRevoked();
    return user;
  }
}
