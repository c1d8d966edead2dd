/**
 * Counts failed sign-ins per key (an account, a client IP). Past a threshold the key is refused for a
 * while; before that, each failure may slow the answer down.
 */
export abstract class LoginThrottle {
  /** Resolves when the keys may try again (after any slow-down); rejects with RateLimitedError when blocked. */
  abstract admit(keys: string[]): Promise<void>;
  abstract recordFailure(keys: string[]): void;
  abstract reset(keys: string[]): void;
}
