import { UnauthorizedError } from '@lnk/shared/kernel';
import { FixedClock } from '@lnk/shared/testing';
import { MemoryUserRepository } from '@lnk/identity/testing';
import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { GetCurrentUserUseCase } from './get-current-user.use-case';

const principal: Principal = {
  userId: 'u1',
  scopes: ['user:read'],
  via: 'pat',
  tokenId: 't1',
  clientId: null,
  grantExpiresAt: null,
  authTime: null,
};

describe('GetCurrentUserUseCase (no cache: every request reads)', () => {
  let clock: FixedClock;
  let users: MemoryUserRepository;
  let getCurrentUser: GetCurrentUserUseCase;

  const store = (changes: Partial<ReturnType<User['toProps']>> = {}) => {
    const now = clock.now();
    users.rows.set('u1', {
      id: 'u1',
      email: 'ada@example.com',
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
    getCurrentUser = new GetCurrentUserUseCase(users);
    store();
  });

  // A deleted or deactivated account must stop authenticating: its tokens may outlive it a moment.
  it('refuses an account deleted or deactivated', async () => {
    expect((await getCurrentUser.execute(principal)).name).toBe('Ada');
    store({ isActive: false });
    await expect(getCurrentUser.execute(principal)).rejects.toBeInstanceOf(UnauthorizedError);
    users.rows.delete('u1');
    await expect(getCurrentUser.execute(principal)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  // What `shared` gives may be kept and shared by a cache: nobody may change it.
  it('gives a frozen account from shared, and a copy of its own to change from execute', async () => {
    const shared = await getCurrentUser.shared(principal);
    expect(Object.isFrozen(shared)).toBe(true);
    expect(() => shared.changeEmail('eve@example.com', clock.now())).toThrow(TypeError);
    const own = await getCurrentUser.execute(principal);
    own.changeEmail('eve@example.com', clock.now());
    expect(own.email).toBe('eve@example.com');
    expect(users.rows.get('u1')?.email).toBe('ada@example.com');
  });
});
