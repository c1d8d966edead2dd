import { Page, PageRequest } from '@lnk/shared/kernel';
import { User } from '../model/user.entity';
import { OperatorDirectory } from '../ports/operator-directory';

/*
 * An operator's use case: what the operator (the CLI on the server, who holds the database) does to
 * accounts. No HTTP route reaches it: it takes no Principal because the operator vouches for what it asks.
 */

export class ListUsersUseCase {
  constructor(private readonly directory: OperatorDirectory) {}

  execute(page: PageRequest): Promise<Page<User>> {
    return this.directory.listUsers(page);
  }
}
