import { BcryptPasswordHasher, InMemoryLoginThrottle } from '@lnk/identity/adapter-crypto';
import { LINK_PASSWORD_THROTTLE, PasswordAttemptsViaIdentity } from '@lnk/bridges';
import { CheckLinkPasswordUseCase } from '@lnk/links/domain';
import { RateLimitedError } from '@lnk/shared/kernel';

const hasher = new BcryptPasswordHasher(4);
let link: { id: string; passwordHash: string };
beforeAll(async () => (link = { id: 'l1', passwordHash: await hasher.hash('open sesame') }));

/**
 * The link password check as both apps compose it (LINK_PASSWORD_THROTTLE on the in-memory throttle, bcrypt),
 * with the throttle's waits recorded instead of slept: what is refused, and how long a request may wait.
 */
function composed() {
  const waits: number[] = [];
  const throttle = new InMemoryLoginThrottle(
    LINK_PASSWORD_THROTTLE,
    () => 0,
    async (ms) => void waits.push(ms),
  );
  return { waits, check: new CheckLinkPasswordUseCase(hasher, new PasswordAttemptsViaIdentity(throttle)) };
}

describe('the link password throttle both apps compose', () => {
  // Issue 27: 110 wrong posts from 110 addresses refused the link to everyone, its right password included.
  it(
    'never refuses a link for failures from many addresses: it slows each guess ' +
      'down, by at most maxDelayMs, and the right password still opens it',
    async () => {
      const { waits, check } = composed();
      for (let i = 0; i < 200; i++) expect(await check.execute(link, `guess ${i}`, `10.0.0.${i}`)).toBe(false);
      expect(await check.execute(link, 'open sesame', '192.0.2.200')).toBe(true);
      // A wait of each request's own, bounded: past the free failures it grows, then stays at the cap.
      expect(Math.max(...waits)).toBe(LINK_PASSWORD_THROTTLE.maxDelayMs);
      expect(waits.every((ms) => ms > 0 && ms <= LINK_PASSWORD_THROTTLE.maxDelayMs)).toBe(true);
    },
  );

  it('refuses one address after its run of wrong passwords at a link, the right one included, and only that address', async () => {
    const { check } = composed();
    for (let i = 0; i < 10; i++) expect(await check.execute(link, `guess ${i}`, '203.0.113.7')).toBe(false);
    await expect(check.execute(link, 'open sesame', '203.0.113.7')).rejects.toBeInstanceOf(RateLimitedError);
    expect(await check.execute(link, 'open sesame', '203.0.113.8')).toBe(true);
  });
});
