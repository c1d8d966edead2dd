import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { AccountReader } from '../ports/account-reader';
import { currentUser } from '../services/current-user';

/**
 * The signed-in account (GET /user/me), read through `accounts`: the composition puts a cache in front,
 * which every committed change of an account's row evicts, so what it gives is never older than the row.
 */
export class GetCurrentUserUseCase {
  constructor(private readonly accounts: AccountReader) {}

  /** The account, the caller's own copy (it may change it, never what is shared). */
  async execute(principal: Principal): Promise<User> {
    return new User((await this.shared(principal)).toProps());
  }

  /**
   * The account, frozen (its methods that change it throw): with a cache in front, the same object for every
   * read while the cache holds it, a new one once the account changed (or the entry aged out). What is made
   * from it can be kept beside it (keyed by it, e.g. an answer's JSON) and is exactly as fresh as the account.
   */
  async shared(principal: Principal): Promise<User> {
    // The entity replaces its props whole to change (never in place): frozen, it cannot change.
    return Object.freeze(await currentUser(this.accounts, principal)) as User;
  }
}
