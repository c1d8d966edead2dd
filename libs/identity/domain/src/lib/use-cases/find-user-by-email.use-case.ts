import { found } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { User } from '../model/user.entity';
import { UserRepository } from '../ports/user.repository';

/*
 * An operator's use case: what the operator (the CLI on the server, who holds the database) does to
 * accounts. No HTTP route reaches it: it takes no Principal because the operator vouches for what it asks.
 */

/** The account with this address, for a command that names its owner (`--owner E`). */
export class FindUserByEmailUseCase {
  constructor(private readonly users: UserRepository) {}

  async execute(email: string, field = 'email'): Promise<User> {
    return found(await this.users.findByEmail(normalizeEmail(email, field)), `User ${email}`);
  }
}
