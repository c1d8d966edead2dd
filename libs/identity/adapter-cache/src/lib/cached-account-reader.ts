import { AccountChanges, AccountReader, User } from '@lnk/identity/domain';
import { LookupCache } from '@lnk/shared/cache';
import { Clock } from '@lnk/shared/kernel';

export interface AccountCacheOptions {
  maxEntries: number;
  ttlMs: number;
}

/**
 * Accounts kept in process by id, frozen and shared by every read while held (GET /user/me keeps its
 * answer's JSON keyed by the object). The apps wire `accountChanged` to every committed change of an
 * account's row (the user repository reports them, with Redis on every instance) and `forgetAll` to
 * revocations and to Redis outages, so a kept account is never older than its row; the TTL only bounds
 * its age in memory. A read that a change of its account overtook (it may hold the old row) is not kept.
 */
export class CachedAccountReader extends AccountReader implements AccountChanges {
  private readonly accounts: LookupCache<string, User>;

  constructor(
    private readonly inner: AccountReader,
    clock: Clock,
    options: AccountCacheOptions = { maxEntries: 10_000, ttlMs: 10_000 },
  ) {
    super();
    this.accounts = new LookupCache({ found: { maxEntries: options.maxEntries, ttlMs: options.ttlMs, now: () => clock.now().getTime() } });
  }

  async findById(id: string): Promise<User | null> {
    return this.accounts.get(id, async () => {
      const user = await this.inner.findById(id);
      // The entity replaces its props whole to change (never in place): frozen, it cannot change.
      return user && (Object.freeze(user) as User);
    });
  }

  accountChanged(userId: string): void {
    this.accounts.delete(userId);
  }

  forgetAll(): void {
    this.accounts.clear();
  }
}
