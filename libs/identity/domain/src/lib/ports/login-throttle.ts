/**
 * One attempt at a secret, admitted by the throttle. It counts as a failure from the moment it is
 * admitted, so attempts racing in parallel see each other before any of them is checked; a caller that
 * does nothing more leaves it counted as a failure.
 */
export interface LoginAttempt {
  /** The secret was right: the attempt no longer counts, and the caller's earlier failures are forgiven. */
  succeeded(): void;
  /** Neither right nor wrong (the second factor is still to be asked for): the attempt no longer counts. */
  withdraw(): void;
}

/**
 * Counts attempts at a secret per key (an account, an address, the pair of both), as a
 * LoginThrottlePolicy says: past a threshold a key is refused for what is left of its window, and
 * before that each failure may slow the next attempt down.
 */
export abstract class LoginThrottle {
  /**
   * Counts one attempt against every key, before the secret is checked, and resolves (after any
   * slow-down) with the attempt to settle; rejects with RateLimitedError, counting nothing, when a key is
   * refused.
   */
  abstract admit(keys: string[]): Promise<LoginAttempt>;

  /**
   * The key a client address is counted under: every address of one subscriber together (an IPv6 address
   * as its /64), so a fresh address buys no fresh budget. Reading addresses is a library's work, the adapter's.
   */
  abstract addressKey(address: string): string;
}

/** How one kind of key (by prefix: `account:`, `ip:`, `account-ip:`) is throttled. */
export interface ThrottleRule {
  prefix: string;
  /** Failures within the window after which the key is refused; Infinity: never refused, only slowed down. */
  maxFailures: number;
  /** Failures tolerated before attempts start to slow down (a shared address sees others' typos). */
  freeFailures: number;
  /**
   * Whether a success forgives the key's earlier failures. Only for keys that name the one who proved
   * the secret (an account from one address): a success at an account or a link must not wipe out
   * what others tried against it.
   */
  forgivenBySuccess: boolean;
  /** Not refused for an attempt whose `familiar` key proved the secret lately (see LoginThrottlePolicy.familiar). */
  waivedWhenFamiliar?: boolean;
}

export interface LoginThrottlePolicy {
  rules: ThrottleRule[];
  /** A key's count lives this long from its first failure (a refusal ends with it). */
  windowMs: number;
  /** Added delay per failure beyond the free ones, capped at maxDelayMs. */
  delayStepMs: number;
  maxDelayMs: number;
  /**
   * A success remembers its key of this prefix (an account from one address) for `forMs`; rules marked
   * `waivedWhenFamiliar` let that key's attempts through while they refuse strangers.
   */
  familiar?: { prefix: string; forMs: number };
}

/**
 * Sign-ins and every other check of an account's password (reauthentication, password change, the
 * second factor). An account has a budget of 20 failures per 15 minutes from everywhere together, shared
 * by every instance: spreading guesses over addresses (or over X-Forwarded-For values a too-trusting
 * TRUST_PROXY believes) buys no more than 20, about 1,900 a day. Once it is spent, the account is refused
 * to strangers until the window ends, at most 15 minutes after the first of those failures; an address
 * the account signed in from in the last 30 days keeps its own 10, so guessers can shut strangers out
 * but not the owner at home. One address may fail 10 times at one account and 100 times in all: one
 * address alone cannot spend an account's budget.
 */
export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicy = {
  rules: [
    { prefix: 'account:', maxFailures: 20, freeFailures: 5, forgivenBySuccess: false, waivedWhenFamiliar: true },
    { prefix: 'account-ip:', maxFailures: 10, freeFailures: 0, forgivenBySuccess: true },
    { prefix: 'ip:', maxFailures: 100, freeFailures: 20, forgivenBySuccess: false },
  ],
  windowMs: 15 * 60_000,
  delayStepMs: 200,
  maxDelayMs: 2000,
  familiar: { prefix: 'account-ip:', forMs: 30 * 86_400_000 },
};

/** The keys of an attempt that a rule counts, each with its rule (a key no rule names is not counted). */
export function ruledKeysOf(policy: LoginThrottlePolicy, keys: readonly string[]): { key: string; rule: ThrottleRule }[] {
  return keys.flatMap((key) => {
    const rule = policy.rules.find((r) => key.startsWith(r.prefix));
    return rule ? [{ key, rule }] : [];
  });
}

/** The key among `keys` whose success is remembered (`policy.familiar`), if any. */
export function familiarKeyOf(policy: LoginThrottlePolicy, keys: readonly string[]): string | undefined {
  const familiar = policy.familiar;
  return familiar ? keys.find((key) => key.startsWith(familiar.prefix)) : undefined;
}

/** How long an attempt waits, given the failures each of its keys had counted before it. */
export function throttleDelayMs(policy: LoginThrottlePolicy, counted: readonly { rule: ThrottleRule; failures: number }[]): number {
  const beyond = Math.max(0, ...counted.map(({ rule, failures }) => failures - rule.freeFailures));
  return Math.min(beyond * policy.delayStepMs, policy.maxDelayMs);
}

/**
 * The keys one sign-in attempt counts against: the account (refused after a budget of failures from
 * anywhere, except from an address it signed in from lately), the caller's address (its key,
 * `LoginThrottle.addressKey`: an IPv6 address as its /64) and the pair of both. `account` is any stable
 * name of the account: its e-mail or its id.
 */
export function loginThrottleKeys(account: string, addressKey: string): string[] {
  return [`account:${account}`, `ip:${addressKey}`, `account-ip:${account}|${addressKey}`];
}
