import { UnauthorizedError } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { AccountReader } from '../ports/account-reader';

export async function currentUser(users: AccountReader, principal: Principal): Promise<User> {
  const user = await users.findById(principal.userId);
  // The token outlived its account (deleted a moment ago): it no longer authenticates anyone.
  if (!user || !user.isActive) throw new UnauthorizedError();
  return user;
}
