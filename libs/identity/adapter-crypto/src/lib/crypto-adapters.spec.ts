import { createHash } from 'node:crypto';
import { createCipheriv, randomBytes } from 'node:crypto';
import { RateLimitedError } from '@lnk/shared/kernel';
import { describeLoginThrottleContract } from '@lnk/identity/testing';
import { AesGcmSecretBox } from './aes-gcm-secret.box';
import { InMemoryLoginThrottle, LOGIN_THROTTLE_MAX_KEYS } from './in-memory-login.throttle';
import { S256PkceVerifier } from './s256-pkce.verifier';
import { BcryptPasswordHasher } from './bcrypt-password.hasher';
import { NodeSecretGenerator } from './node-secret.generator';
import { Sha256SecretHasher } from './sha256-secret.hasher';

describe('BcryptPasswordHasher', () => {
  const hasher = new BcryptPasswordHasher(4);

  it('verifies the right password and rejects another', async () => {
    const hash = await hasher.hash('correct horse');
    expect(hash).toMatch(/^\$2[aby]\$04\$/);
    expect(hash).not.toContain('correct horse');
    await expect(hasher.verify('correct horse', hash)).resolves.toBe(true);
    await expect(hasher.verify('correct horsf', hash)).resolves.toBe(false);
  });
});

describe('Sha256SecretHasher', () => {
  const hasher = new Sha256SecretHasher();

  it('stores a hex digest and matches only the same secret', () => {
    const hash = hasher.hash('tkn_abc');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hasher.matches('tkn_abc', hash)).toBe(true);
    expect(hasher.matches('tkn_abd', hash)).toBe(false);
    expect(hasher.matches('tkn_abc', 'abcd')).toBe(false);
  });

  // Tokens stored before the one-shot hash replaced createHash must still be found by their hash.
  it('answers the SHA-256 of the UTF-8 bytes, as stored hashes were made', () => {
    expect(hasher.hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hasher.hash('tkn_é✓')).toBe(createHash('sha256').update(Buffer.from('tkn_é✓', 'utf8')).digest('hex'));
  });
});

describe('NodeSecretGenerator', () => {
  it('makes url-safe values of the requested entropy that do not repeat', () => {
    const generator = new NodeSecretGenerator();
    const values = Array.from({ length: 100 }, () => generator.generate(32));
    expect(new Set(values).size).toBe(100);
    for (const value of values) {
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });
});

describe('S256PkceVerifier', () => {
  // The example of RFC 7636 appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('matches the RFC 7636 example and nothing else', () => {
    const pkce = new S256PkceVerifier();
    expect(pkce.matches(verifier, challenge)).toBe(true);
    expect(pkce.matches(verifier.replace('d', 'e'), challenge)).toBe(false);
    expect(pkce.matches(verifier, challenge.slice(1))).toBe(false);
  });
});

describe('AesGcmSecretBox', () => {
  const box = new AesGcmSecretBox(Buffer.alloc(32, 7));

  it('opens what it sealed, with a fresh nonce each time', () => {
    const a = box.seal('JBSWY3DPEHPK3PXP');
    const b = box.seal('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(a)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses a tampered value or one sealed under another key', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(box.open(parts.join('.'))).toBeNull();
    expect(new AesGcmSecretBox(Buffer.alloc(32, 8)).open(sealed)).toBeNull();
    expect(box.open('garbage')).toBeNull();
  });

  /** A value as the box sealed it before keys were derived: v1, under the master key itself. */
  function sealedTheOldWay(master: Buffer, plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', master, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  // An upgrade must not lock out the accounts whose TOTP secrets were sealed under the master key.
  it('still opens a v1 value sealed under the master key, and seals new values as v2 under the derived key', () => {
    const master = Buffer.alloc(32, 9);
    const upgraded = new AesGcmSecretBox(Buffer.alloc(32, 10), master);
    expect(upgraded.open(sealedTheOldWay(master, 'JBSWY3DPEHPK3PXP'))).toBe('JBSWY3DPEHPK3PXP');
    const fresh = upgraded.seal('JBSWY3DPEHPK3PXP');
    expect(fresh).toMatch(/^v2\./);
    // The master key opens no v2 value, and a v1 value opens only with the legacy key.
    expect(new AesGcmSecretBox(master).open(fresh)).toBeNull();
    expect(new AesGcmSecretBox(Buffer.alloc(32, 10)).open(sealedTheOldWay(master, 'x'))).toBeNull();
  });
});

describe('InMemoryLoginThrottle under the LoginThrottle contract', () => {
  describeLoginThrottleContract((policy, sleep) => {
    let now = 1_700_000_000_000;
    return {
      throttle: new InMemoryLoginThrottle(policy, () => now, sleep),
      passTime: async (ms) => {
        now += ms;
      },
    };
  });
});

describe('InMemoryLoginThrottle', () => {
  const rules = [
    { prefix: 'account:', maxFailures: Infinity, freeFailures: 0, forgivenBySuccess: false },
    { prefix: 'account-ip:', maxFailures: 3, freeFailures: 0, forgivenBySuccess: true },
    { prefix: 'ip:', maxFailures: 3, freeFailures: 0, forgivenBySuccess: false },
  ];
  const keys = (account: string, ip: string) => [`account:${account}`, `ip:${ip}`, `account-ip:${account}|${ip}`];
  const quick = (now: () => number = Date.now) =>
    new InMemoryLoginThrottle({ rules, windowMs: 60_000, delayStepMs: 0, maxDelayMs: 0 }, now);

  // The audit's race: counted only after the check, parallel guesses all got through the door at once.
  it('counts an attempt the moment it is admitted, so parallel attempts beyond the allowance are refused before any check', async () => {
    const throttle = quick();
    const outcomes = await Promise.allSettled(Array.from({ length: 25 }, () => throttle.admit(keys('a', '1'))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(
      outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason instanceof RateLimitedError),
    ).toBe(true);
  });

  it('refuses an address, and an account from one address, after too many failures until the window passes', async () => {
    let now = 0;
    const throttle = quick(() => now);
    for (let i = 0; i < 3; i++) await throttle.admit(keys('a', '1'));
    await expect(throttle.admit(keys('a', '1'))).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 60 });
    await expect(throttle.admit(keys('b', '1'))).rejects.toBeInstanceOf(RateLimitedError);
    now += 60_000;
    await expect(throttle.admit(keys('a', '1'))).resolves.toBeDefined();
  });

  // The audit's lock-out: ten failures from anywhere refused the account, its owner included, for 15 minutes.
  it('never refuses an account for failures from other addresses: its owner still gets in from their own', async () => {
    const throttle = quick();
    for (let ip = 0; ip < 10; ip++) for (let i = 0; i < 3; i++) await throttle.admit(keys('a', `attacker-${ip}`));
    await expect(throttle.admit(keys('a', 'attacker-0'))).rejects.toBeInstanceOf(RateLimitedError);
    const owner = await throttle.admit(keys('a', 'home'));
    owner.succeeded();
  });

  it(
    'takes back a success or a withdrawal; a success forgives the pair but ' + 'not what others tried at the account or from the address',
    async () => {
      const waits: number[] = [];
      const throttle = new InMemoryLoginThrottle({ rules, windowMs: 60_000, delayStepMs: 10, maxDelayMs: 1000 }, Date.now, async (ms) => {
        waits.push(ms);
      });
      await throttle.admit(keys('a', '1'));
      await throttle.admit(keys('a', '1'));
      (await throttle.admit(keys('a', '1'))).withdraw();
      (await throttle.admit(keys('a', '1'))).succeeded();
      // The pair is forgiven; the account keeps its 2 failures (its delay), the address too (1 more allowed).
      const next = await throttle.admit(keys('a', '1'));
      expect(waits).toEqual([10, 20, 20, 20]);
      next.succeeded();
      next.succeeded();
      await throttle.admit(keys('b', '1'));
      await expect(throttle.admit(keys('c', '1'))).rejects.toBeInstanceOf(RateLimitedError);
    },
  );

  it('slows each attempt by a step per failure beyond the free ones, up to a cap', async () => {
    const waits: number[] = [];
    const throttle = new InMemoryLoginThrottle(
      {
        rules: [
          { prefix: 'account:', maxFailures: Infinity, freeFailures: 0, forgivenBySuccess: false },
          { prefix: 'ip:', maxFailures: 10, freeFailures: 2, forgivenBySuccess: false },
        ],
        windowMs: 60_000,
        delayStepMs: 40,
        maxDelayMs: 100,
      },
      Date.now,
      async (ms) => {
        waits.push(ms);
      },
    );
    for (let i = 0; i < 4; i++) await throttle.admit(['account:k']);
    for (let i = 0; i < 3; i++) await throttle.admit(['ip:1']);
    await throttle.admit(['ip:1']);
    expect(waits).toEqual([40, 80, 100, 40]);
  });

  // A flood of distinct addresses (or made-up e-mails) must not grow the process without end: the counts
  // were swept of expired keys only, so every key of a flood within its window stayed held.
  it('holds at most its bound of keys, however many distinct addresses try within a window', async () => {
    const throttle = new InMemoryLoginThrottle({ rules, windowMs: 60_000, delayStepMs: 0, maxDelayMs: 0 }, () => 1_000, undefined, 5_000);
    for (let i = 0; i < 5_001; i++) await throttle.admit([`ip:${i}`]);
    expect(throttle.keysHeld).toBe(5_000);
    // The first address was pushed out; the last ones are still counted.
    await throttle.admit(['ip:5000']);
    await throttle.admit(['ip:5000']);
    await expect(throttle.admit(['ip:5000'])).rejects.toBeInstanceOf(RateLimitedError);
    expect(LOGIN_THROTTLE_MAX_KEYS).toBeGreaterThanOrEqual(10_000);
  });

  // Pushing the bound must not free the address under attack: its key is read at each of its attempts.
  it('keeps refusing an attacking address while a flood of other addresses passes the bound', async () => {
    const throttle = new InMemoryLoginThrottle({ rules, windowMs: 60_000, delayStepMs: 0, maxDelayMs: 0 }, () => 1_000, undefined, 100);
    for (let i = 0; i < 3; i++) await throttle.admit(['ip:attacker']);
    for (let i = 0; i < 5_001; i++) {
      await throttle.admit([`ip:${i}`]);
      if (i % 50 === 0) await expect(throttle.admit(['ip:attacker'])).rejects.toBeInstanceOf(RateLimitedError);
    }
    expect(throttle.keysHeld).toBeLessThanOrEqual(100);
  });

  it('lets keys without a rule through uncounted', async () => {
    const throttle = quick();
    for (let i = 0; i < 10; i++) await throttle.admit(['other:x']);
    await expect(throttle.admit(['other:x'])).resolves.toBeDefined();
  });
});
