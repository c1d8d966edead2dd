import { Clock, NotFoundError, Page, PageRequest, UnitOfWork } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { OAuthClient } from '../model/oauth-client.entity';
import { checkNewPassword, User } from '../model/user.entity';
import { OperatorDirectory } from '../ports/operator-directory';
import { PasswordHasher } from '@lnk/shared/kernel';
import { RevocationListener } from '../ports/revocation-listener';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';

/*
 * What the operator (the CLI on the server, who holds the database) does to accounts. No HTTP route
 * reaches these: they take no Principal because the operator vouches for what they ask.
 */

/** The account with this address, for a command that names its owner (`--owner E`). */
export class FindUserByEmailUseCase {
  constructor(private readonly users: UserRepository) {}

  async execute(email: string, field = 'email'): Promise<User> {
    const user = await this.users.findByEmail(normalizeEmail(email, field));
    if (!user) throw new NotFoundError(`User ${email}`);
    return user;
  }
}

export class ListUsersUseCase {
  constructor(private readonly directory: OperatorDirectory) {}

  execute(page: PageRequest): Promise<Page<User>> {
    return this.directory.listUsers(page);
  }
}

/** The service's own clients, never with their secrets (only hashes are kept). */
export class ListFirstPartyClientsUseCase {
  constructor(private readonly directory: OperatorDirectory) {}

  execute(page: PageRequest): Promise<Page<OAuthClient>> {
    return this.directory.listFirstPartyClients(page);
  }
}

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
    const user = await this.users.findByEmail(normalizeEmail(email));
    if (!user) throw new NotFoundError(`User ${email}`);
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
