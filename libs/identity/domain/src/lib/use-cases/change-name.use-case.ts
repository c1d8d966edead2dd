import { Clock } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { checkNewName, User } from '../model/user.entity';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';

/** The account's display name, changed (checked as at sign-up, and not empty); nothing else about it changes. */
export class ChangeNameUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, name: unknown): Promise<User> {
    const checked = checkNewName(name);
    const user = await currentUser(this.users, principal);
    user.rename(checked, this.clock.now());
    await this.users.update(user);
    return user;
  }
}
