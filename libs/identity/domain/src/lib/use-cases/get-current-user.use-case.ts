import { Clock, TtlLruCache } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';

export interface CurrentUserCacheOptions {
  cacheTtlMs: number;
  cacheSize: number;
}

/**
 * The signed-in account (GET /user/me), from a short in-process cache by user id: without it every call
 * is a database round trip. The apps wire `accountChanged` to every committed change of an account's row
 * (the user repository reports them, with Redis on every instance) and `forgetAll` to revocations and to
 * Redis outages, so a cached account is never older than its row; the TTL only bounds the memory's age.
 *
 * A read that raced a change is not kept: an account read while a change was being committed could be the
 * old row, and a cache filled with it after the change's eviction would serve it until the TTL.
 */
export class GetCurrentUserUseCase {
  /** Frozen accounts, shared by every read while cached (see `shared`). */
  private readonly cache: TtlLruCache<string, User>;

  constructor(
    private readonly users: UserRepository,
    clock: Clock,
    options: CurrentUserCacheOptions = { cacheTtlMs: 10_000, cacheSize: 10_000 },
  ) {
    this.cache = new TtlLruCache({ maxEntries: options.cacheSize, ttlMs: options.cacheTtlMs }, () => clock.now().getTime());
  }

  accountChanged(userId: string): void {
    this.cache.delete(userId);
  }

  forgetAll(): void {
    this.cache.clear();
  }

  /** The account, the caller's own copy (it may change it, never what is cached). */
  async execute(principal: Principal): Promise<User> {
    return new User((await this.shared(principal)).toProps());
  }

  /**
   * The account, frozen (its methods that change it throw): the same object for every read while the cache
   * holds it, a new one once the account changed (or the entry aged out). What is made from it can be kept
   * beside it (keyed by it, e.g. an answer's JSON) and is exactly as fresh as the account itself.
   */
  async shared(principal: Principal): Promise<User> {
    const cached = this.cache.get(principal.userId);
    if (cached) return cached;
    const evictions = this.cache.evictions;
    const user = await currentUser(this.users, principal);
    // The entity replaces its props whole to change (never in place): frozen, it cannot change.
    const frozen: User = Object.freeze(user) as User;
    this.cache.setIfNotEvicted(evictions, user.id, frozen);
    return frozen;
  }
}

