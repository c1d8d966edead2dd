import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';

export class GetCurrentUserUseCase {
  constructor(private readonly users: UserRepository) {}

  execute(principal: Principal): Promise<User> {
    return currentUser(this.users, principal);
  }
}
