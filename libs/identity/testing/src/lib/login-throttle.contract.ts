import { LoginThrottle, LoginThrottlePolicy, loginThrottleKeys } from '@lnk/identity/domain';
import { ObjectIdGenerator, RateLimitedError } from '@lnk/shared/kernel';

// One behaviour for the in-memory throttle (one instance) and the Redis one (shared by instances). Accounts
// and addresses are fresh for each use: the Redis server is shared by the whole test run.

const ids = new ObjectIdGenerator();
const freshAccount = () => `ada.${ids.next().slice(-12)}@example.com`;
/** A fresh IPv6 /64 (the throttle counts an IPv6 address by its /64). */
const freshIp = () =>
  `2001:db8:${ids
    .next()
    .slice(-8)
    .replace(/^(.{4})/, '$1:')}::1`;

/** The default policy's rules and familiarity, with small numbers and a window the test can pass. */
const policy: LoginThrottlePolicy = {
  rules: [
    { prefix: 'account:', maxFailures: 5, freeFailures: 1, forgivenBySuccess: false, waivedWhenFamiliar: true },
    { prefix: 'account-ip:', maxFailures: 3, freeFailures: 0, forgivenBySuccess: true },
    { prefix: 'ip:', maxFailures: 4, freeFailures: 2, forgivenBySuccess: false },
  ],
  // Long enough for a loaded machine to make a test's attempts within one window.
  windowMs: 3000,
  delayStepMs: 10,
  maxDelayMs: 25,
  familiar: { prefix: 'account-ip:', forMs: 60_000 },
};

export interface LoginThrottleUnderTest {
  throttle: LoginThrottle;
  /** Lets `ms` pass for the throttle (a clock moved on, or real time waited). */
  passTime(ms: number): Promise<void>;
  close?(): Promise<void>;
}

/**
 * The LoginThrottle port's behaviour under a LoginThrottlePolicy; `make` is called before each test with
 * the policy and the sleep every slow-down must go through.
 */
export function describeLoginThrottleContract(
  make: (policy: LoginThrottlePolicy, sleep: (ms: number) => Promise<void>) => LoginThrottleUnderTest | Promise<LoginThrottleUnderTest>,
): void {
  describe('LoginThrottle contract', () => {
    let subject: LoginThrottleUnderTest;
    let waits: number[];
    beforeEach(async () => {
      waits = [];
      subject = await make(policy, async (ms) => {
        waits.push(ms);
      });
    });
    afterEach(() => subject.close?.());
    const admit = (account: string, ip: string) => subject.throttle.admit(loginThrottleKeys(account, subject.throttle.addressKey(ip)));
    const outcomes = (attempts: Promise<unknown>[]) =>
      Promise.allSettled(attempts).then((settled) => ({
        admitted: settled.filter((o) => o.status === 'fulfilled').length,
        refused: settled.filter((o) => o.status === 'rejected' && o.reason instanceof RateLimitedError && o.reason.retryAfterSeconds >= 1)
          .length,
      }));

    it(
      'counts an attempt when it is admitted: of 10 parallel ones from one ' +
        'address, the pair allowance of 3 get in, the rest are refused',
      async () => {
        const [account, ip] = [freshAccount(), freshIp()];
        expect(await outcomes(Array.from({ length: 10 }, () => admit(account, ip)))).toEqual({ admitted: 3, refused: 7 });
      },
    );

    // The audit (issue 27, item 5): 100 parallel guesses from 100 X-Forwarded-For values all reached bcrypt.
    it(
      "caps an account's failures from every address together: of 30 " + "parallel attempts from 30 addresses, the account's 5 get in",
      async () => {
        const account = freshAccount();
        expect(await outcomes(Array.from({ length: 30 }, () => admit(account, freshIp())))).toEqual({ admitted: 5, refused: 25 });
        // Other accounts are not concerned.
        expect(await outcomes([admit(freshAccount(), freshIp())])).toEqual({ admitted: 1, refused: 0 });
      },
    );

    it(
      'lets an address the account proved its secret from lately in, while ' + 'strangers are refused, within its own pair allowance',
      async () => {
        const [account, home] = [freshAccount(), freshIp()];
        (await admit(account, home)).succeeded();
        for (let i = 0; i < 5; i++) await admit(account, freshIp());
        expect(await outcomes([admit(account, freshIp())])).toEqual({ admitted: 0, refused: 1 });
        // From the familiar address: the pair's own 3, no more.
        expect(await outcomes([admit(account, home), admit(account, home), admit(account, home), admit(account, home)])).toEqual({
          admitted: 3,
          refused: 1,
        });
      },
    );

    it('refuses for the rest of the window only: once it has passed, the account is admitted again', async () => {
      const [account, stranger] = [freshAccount(), freshIp()];
      for (let i = 0; i < 5; i++) await admit(account, freshIp());
      expect(await outcomes([admit(account, stranger)])).toEqual({ admitted: 0, refused: 1 });
      await subject.passTime(policy.windowMs + 50);
      expect(await outcomes([admit(account, stranger)])).toEqual({ admitted: 1, refused: 0 });
    });

    it(
      'takes a withdrawn attempt back, and on a success forgives the ' + "pair's failures but not the account's nor the address's",
      async () => {
        const [account, ip] = [freshAccount(), freshIp()];
        await admit(account, ip);
        await admit(account, ip);
        (await admit(account, ip)).withdraw();
        (await admit(account, ip)).succeeded();
        // The pair is forgiven (3 more from it); the address keeps its 2 failures (2 more, then refused).
        expect(await outcomes([admit(account, ip), admit(account, ip)])).toEqual({ admitted: 2, refused: 0 });
        expect(await outcomes([admit(freshAccount(), ip)])).toEqual({ admitted: 0, refused: 1 });
      },
    );

    it('settles an attempt once, however often it is told', async () => {
      const [account, ip] = [freshAccount(), freshIp()];
      await admit(account, ip);
      await admit(account, ip);
      const attempt = await admit(account, ip);
      attempt.withdraw();
      attempt.withdraw();
      attempt.succeeded();
      expect(await outcomes([admit(account, ip), admit(account, ip)])).toEqual({ admitted: 1, refused: 1 });
    });

    it('slows each attempt by a step per failure its keys had beyond their free ones, up to the cap', async () => {
      const account = freshAccount();
      for (let i = 0; i < 5; i++) await admit(account, freshIp());
      // The account had 0 to 4 failures before each (1 free): none, none, 10, 20 ms, then the 25 ms cap.
      expect(waits).toEqual([10, 20, 25]);
    });

    // Without grouping, each of the 2^64 addresses of one IPv6 subscriber had an allowance of its own.
    it('counts an address by its subscriber: the addresses of one IPv6 /64 as one, an IPv4-mapped address as the IPv4 one', async () => {
      const account = freshAccount();
      const network = freshIp().replace(/::1$/, '');
      expect(await outcomes([1, 2, 3, 4].map((i) => admit(account, `${network}:${i}::${i}`)))).toEqual({ admitted: 3, refused: 1 });
      expect(subject.throttle.addressKey('::ffff:192.0.2.1')).toBe(subject.throttle.addressKey('192.0.2.1'));
      expect(subject.throttle.addressKey(`${network}::1`)).not.toBe(subject.throttle.addressKey('2001:db8:ffff:ffff::1'));
    });

    it('lets keys without a rule through uncounted', async () => {
      for (let i = 0; i < 10; i++) await subject.throttle.admit([`other:${ids.next()}`, 'other:same']);
      expect(await outcomes([subject.throttle.admit(['other:same'])])).toEqual({ admitted: 1, refused: 0 });
    });
  });
}
