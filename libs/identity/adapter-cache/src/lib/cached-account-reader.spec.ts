import { GetCurrentUserUseCase, Principal, User } from '@lnk/identity/domain';
import { MemoryUserRepository } from '@lnk/identity/testing';
import { UnauthorizedError } from '@lnk/shared/kernel';
import { FixedClock } from '@lnk/shared/testing';
import { CachedAccountReader } from './cached-account-reader';

const principalOf = (userId: string): Principal => ({
  userId,
  scopes: ['user:read'],
  via: 'pat',
  tokenId: 't1',
  clientId: null,
  grantExpiresAt: null,
  authTime: null,
});
const principal = principalOf('u1');

/** GET /user/me as the apps compose it: the use case reading through the cached reader. */
describe('CachedAccountReader under GetCurrentUserUseCase', () => {
  let clock: FixedClock;
  let users: MemoryUserRepository;
  let reads: number;
  let cache: CachedAccountReader;
  let getCurrentUser: GetCurrentUserUseCase;

  const store = (changes: Partial<ReturnType<User['toProps']>> = {}, id = 'u1') => {
    const now = clock.now();
    users.rows.set(id, {
      id,
      email: `${id}@example.com`,
      name: 'Ada',
      passwordHash: null,
      isVerified: true,
      isActive: true,
      twoFactorSecret: null,
      createdAt: now,
      updatedAt: now,
      ...changes,
    });
  };

  beforeEach(() => {
    clock = new FixedClock();
    users = new MemoryUserRepository();
    reads = 0;
    const findById = users.findById.bind(users);
    users.findById = (id) => {
      reads++;
      return findById(id);
    };
    cache = new CachedAccountReader(users, clock, { ttlMs: 10_000, maxEntries: 10 });
    getCurrentUser = new GetCurrentUserUseCase(cache);
    store();
  });

  it('reads an account once, then answers from the cache until its TTL', async () => {
    expect((await getCurrentUser.execute(principal)).name).toBe('Ada');
    expect((await getCurrentUser.execute(principal)).name).toBe('Ada');
    expect(reads).toBe(1);
    clock.advance(10_001);
    await getCurrentUser.execute(principal);
    expect(reads).toBe(2);
  });

  // The cache must never show an account older than its row: a change evicts it at once.
  it('reads the account again once told it changed', async () => {
    await getCurrentUser.execute(principal);
    store({ name: 'Grace' });
    cache.accountChanged('u1');
    expect((await getCurrentUser.execute(principal)).name).toBe('Grace');
  });

  // Issue 15: GET /user/me keeps its answer's JSON keyed by the shared account; that is exact only if the
  // object is the same while the account is unchanged, a new one once it changed, and cannot be changed.
  it('shares one frozen account while cached, a new one after a change, and copies for execute', async () => {
    const first = await getCurrentUser.shared(principal);
    expect(await getCurrentUser.shared(principal)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => first.changeEmail('eve@example.com', clock.now())).toThrow(TypeError);
    const own = await getCurrentUser.execute(principal);
    expect(own).not.toBe(first);
    own.changeEmail('eve@example.com', clock.now());
    expect((await getCurrentUser.shared(principal)).email).toBe('u1@example.com');
    store({ name: 'Grace' });
    cache.accountChanged('u1');
    const changed = await getCurrentUser.shared(principal);
    expect(changed).not.toBe(first);
    expect(changed.name).toBe('Grace');
  });

  // A deleted or deactivated account must stop authenticating at once, not after the cache's TTL.
  it('refuses an account deleted or deactivated after it was cached', async () => {
    await getCurrentUser.execute(principal);
    store({ isActive: false });
    cache.accountChanged('u1');
    await expect(getCurrentUser.execute(principal)).rejects.toBeInstanceOf(UnauthorizedError);
    users.rows.delete('u1');
    cache.forgetAll();
    await expect(getCurrentUser.execute(principal)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  // A read that began before a change committed may hold the old row: kept, it would outlive the eviction.
  it('does not keep a read that an eviction overtook', async () => {
    let release!: () => void;
    const findById = users.findById;
    users.findById = async (id) => {
      const old = await findById(id);
      await new Promise<void>((resolve) => (release = resolve));
      return old;
    };
    const racing = getCurrentUser.execute(principal);
    await new Promise((resolve) => setImmediate(resolve));
    store({ name: 'Grace' });
    cache.accountChanged('u1');
    release();
    expect((await racing).name).toBe('Ada'); // answered with what it read...
    users.findById = findById;
    expect((await getCurrentUser.execute(principal)).name).toBe('Grace'); // ...but not kept
  });

  // The cached entity is the cache's own: a caller changing what it got changes nothing cached.
  it('hands out copies', async () => {
    const first = await getCurrentUser.execute(principal);
    first.changeEmail('eve@example.com', clock.now());
    expect((await getCurrentUser.execute(principal)).email).toBe('u1@example.com');
  });

  // Bounded: a flood of distinct accounts cannot grow the cache past its max.
  it('holds at most maxEntries accounts', async () => {
    for (let i = 0; i < 30; i++) store({}, `u${i}`);
    for (let i = 0; i < 30; i++) await getCurrentUser.execute(principalOf(`u${i}`));
    const before = reads;
    await getCurrentUser.execute(principalOf('u29'));
    expect(reads).toBe(before);
    await getCurrentUser.execute(principalOf('u0'));
    expect(reads).toBe(before + 1);
  });
});
