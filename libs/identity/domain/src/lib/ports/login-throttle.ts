import { clientAddressKey } from '@lnk/shared/kernel';

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
 * Counts attempts at a secret per key (an account, an address, the pair of both). What each kind of key
 * allows is the adapter's rule: past a threshold a key may be refused for a while, and before that each
 * failure may slow the next attempt down.
 */
export abstract class LoginThrottle {
  /**
   * Counts one attempt against every key, before the secret is checked, and resolves (after any
   * slow-down) with the attempt to settle; rejects with RateLimitedError, counting nothing, when a key is
   * refused.
   */
  abstract admit(keys: string[]): Promise<LoginAttempt>;
}

/**
 * The keys one sign-in attempt counts against: the account (failures from anywhere slow it down but
 * never lock its owner out), the caller's address (an IPv6 address as its /64) and the pair of both
 * (refused after a run of failures). `account` is any stable name of the account: its e-mail or its id.
 */
export function loginThrottleKeys(account: string, ip: string): string[] {
  const address = clientAddressKey(ip);
  return [`account:${account}`, `ip:${address}`, `account-ip:${account}|${address}`];
}
