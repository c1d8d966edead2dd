import { CountingPasswordHasher } from '@lnk/shared/testing';
import { CappedLoginThrottle } from '@lnk/identity/testing';
import { RateLimitedError } from '@lnk/shared/kernel';
import { OAuthError, TwoFactorRequiredError } from '../model/oauth-error';
import { User } from '../model/user.entity';
import { loginThrottleKeys } from '../ports/login-throttle';
import { UserRepository } from '../ports/user.repository';
import { CredentialsChecker } from './credentials-checker';
import { SecondFactor } from './second-factor';

const ada = (twoFactor: boolean) =>
  new User({
    id: 'u1',
    email: 'ada@example.com',
    name: '',
    passwordHash: 'hashed:right password',
    isVerified: true,
    isActive: true,
    twoFactorSecret: twoFactor ? 'sealed' : null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
const usersWith = (user: User): UserRepository => ({
  findById: async () => user,
  findByEmail: async (email) => (email === user.email ? user : null),
  insert: async () => undefined,
  update: async () => undefined,
  delete: async () => true,
});
const codes = { verify: async (_user: User, code: string | undefined) => code === '123456' } as unknown as SecondFactor;

describe('CredentialsChecker with the login throttle', () => {
  // The audit's race: the failure used to be counted after the check, so 25 parallel guesses all
  // reached bcrypt before the first was counted.
  it('counts each attempt before its password is checked, so parallel guesses beyond the allowance never reach the hash', async () => {
    const hasher = new CountingPasswordHasher();
    const checker = new CredentialsChecker(usersWith(ada(false)), hasher, new CappedLoginThrottle(10), codes);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => checker.check({ email: 'ada@example.com', password: `guess ${i}`, ip: '203.0.113.9' })),
    );
    const reasons = outcomes.map((o) => (o.status === 'rejected' ? o.reason : null));
    expect(reasons.filter((r) => r instanceof OAuthError)).toHaveLength(10);
    expect(reasons.filter((r) => r instanceof RateLimitedError)).toHaveLength(15);
    expect(hasher.verified).toBe(10);
  });

  it('keeps a wrong password counted, and takes back a right one', async () => {
    const throttle = new CappedLoginThrottle(10);
    const checker = new CredentialsChecker(usersWith(ada(false)), new CountingPasswordHasher(), throttle, codes);
    const [account, address] = loginThrottleKeys('ada@example.com', '203.0.113.9');
    await expect(checker.check({ email: 'Ada@Example.com', password: 'wrong', ip: '203.0.113.9' })).rejects.toBeInstanceOf(OAuthError);
    expect(throttle.counts.get(account)).toBe(1);
    await expect(checker.check({ email: 'ada@example.com', password: 'right password', ip: '203.0.113.9' })).resolves.toMatchObject({
      id: 'u1',
    });
    expect(throttle.counts.get(account)).toBe(1);
    expect(throttle.counts.get(address)).toBe(1);
  });

  // An attacker who knows the password must not be able to clear the count of wrong codes by asking
  // for the code prompt in between.
  it('neither counts nor forgives a right password whose one-time code is still to come, and counts a wrong code', async () => {
    const throttle = new CappedLoginThrottle(10);
    const checker = new CredentialsChecker(usersWith(ada(true)), new CountingPasswordHasher(), throttle, codes);
    const [account] = loginThrottleKeys('ada@example.com', '203.0.113.9');
    await expect(
      checker.check({ email: 'ada@example.com', password: 'right password', otp: '000000', ip: '203.0.113.9' }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(checker.check({ email: 'ada@example.com', password: 'right password', ip: '203.0.113.9' })).rejects.toBeInstanceOf(
      TwoFactorRequiredError,
    );
    expect(throttle.counts.get(account)).toBe(1);
    await expect(
      checker.check({ email: 'ada@example.com', password: 'right password', otp: '123456', ip: '203.0.113.9' }),
    ).resolves.toMatchObject({ id: 'u1' });
  });

  it('does not count a fault (an unreachable database) as a failed attempt', async () => {
    const throttle = new CappedLoginThrottle(10);
    const broken = usersWith(ada(false));
    broken.findByEmail = async () => Promise.reject(new Error('connection refused'));
    const checker = new CredentialsChecker(broken, new CountingPasswordHasher(), throttle, codes);
    await expect(checker.check({ email: 'ada@example.com', password: 'x', ip: '203.0.113.9' })).rejects.toThrow('connection refused');
    expect([...throttle.counts.values()].every((n) => n === 0)).toBe(true);
  });

  it("counts a caller under the throttle's key of its address (an IPv6 caller by its /64), paired with the account", async () => {
    const throttle = new CappedLoginThrottle(10);
    const checker = new CredentialsChecker(usersWith(ada(false)), new CountingPasswordHasher(), throttle, codes);
    await expect(checker.check({ email: 'ada@example.com', password: 'wrong', ip: '2001:db8:1:2:aaaa::1' })).rejects.toBeInstanceOf(
      OAuthError,
    );
    expect([...throttle.counts.keys()]).toEqual([
      'account:ada@example.com',
      'ip:2001:db8:1:2::/64',
      'account-ip:ada@example.com|2001:db8:1:2::/64',
    ]);
  });
});
