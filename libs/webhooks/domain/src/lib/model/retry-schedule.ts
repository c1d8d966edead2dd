/**
 * When a failed delivery is tried again: exponential backoff, the delay of retry n being
 * `baseDelayMs · 4^(n-1)`, capped at MAX_RETRY_DELAY_MS, with ±25 % jitter so that deliveries that
 * failed together (a receiver's outage) do not come back together. With the default base (15 s) and
 * 9 attempts: 15 s, 1 min, 4 min, 16 min, 64 min, 4 h 16 min, 8 h, 8 h, about 22 hours in all.
 */
export interface RetryPolicy {
  baseDelayMs: number;
  /** Attempts in all, the first included; after the last failure the delivery is `failed`. */
  maxAttempts: number;
}

export const MAX_RETRY_DELAY_MS = 8 * 3_600_000;
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseDelayMs: 15_000, maxAttempts: 9 };

/** The delay before the next attempt after `attempts` failed ones, or null when none is left. `random` in [0, 1). */
export function retryDelayMs(attempts: number, policy: RetryPolicy, random: number): number | null {
  if (attempts >= policy.maxAttempts) return null;
  const delay = Math.min(policy.baseDelayMs * 4 ** (attempts - 1), MAX_RETRY_DELAY_MS);
  return Math.round(delay * (0.75 + random * 0.5));
}
