import { LoginThrottle } from '@lnk/identity/domain';
import { RateLimitedError } from '@lnk/shared/kernel';

/** How one kind of key (by prefix: `account:`, `ip:`) is throttled. */
export interface ThrottleRule {
  prefix: string;
  /** Failures within the window after which the key is refused. */
  maxFailures: number;
  /** Failures tolerated before attempts start to slow down (a shared address sees others' typos). */
  freeFailures: number;
}

export interface LoginThrottleOptions {
  rules: ThrottleRule[];
  windowMs: number;
  /** Added delay per failure beyond the free ones, capped at maxDelayMs. */
  delayStepMs: number;
  maxDelayMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  rules: [
    { prefix: 'account:', maxFailures: 10, freeFailures: 0 },
    { prefix: 'ip:', maxFailures: 100, freeFailures: 20 },
  ],
  windowMs: 15 * 60_000,
  delayStepMs: 200,
  maxDelayMs: 2000,
};

/**
 * Per-process failure counts (several instances each count on their own). Each failure slows the next
 * attempt a little; past a rule's maximum the key gets 429 until its window passes.
 */
export class InMemoryLoginThrottle extends LoginThrottle {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly options: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    super();
  }

  async admit(keys: string[]): Promise<void> {
    let slowest = 0;
    for (const key of keys) {
      const entry = this.current(key);
      const rule = this.ruleOf(key);
      if (!entry || !rule) continue;
      if (entry.count >= rule.maxFailures) {
        throw new RateLimitedError(Math.max(1, Math.ceil((entry.since + this.options.windowMs - this.now()) / 1000)));
      }
      slowest = Math.max(slowest, entry.count - rule.freeFailures);
    }
    const delay = Math.min(slowest * this.options.delayStepMs, this.options.maxDelayMs);
    if (delay > 0) await this.sleep(delay);
  }

  recordFailure(keys: string[]): void {
    if (this.failures.size > 100_000) this.prune();
    for (const key of keys) {
      const entry = this.current(key);
      this.failures.set(key, entry ? { ...entry, count: entry.count + 1 } : { count: 1, since: this.now() });
    }
  }

  reset(keys: string[]): void {
    // A success clears the account's count, never the address's: one good password must not wipe
    // out the record of an address guessing at many accounts.
    for (const key of keys) if (!key.startsWith('ip:')) this.failures.delete(key);
  }

  private ruleOf(key: string): ThrottleRule | undefined {
    return this.options.rules.find((r) => key.startsWith(r.prefix));
  }

  private current(key: string) {
    const entry = this.failures.get(key);
    if (entry && entry.since + this.options.windowMs <= this.now()) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  private prune(): void {
    for (const key of [...this.failures.keys()]) this.current(key);
  }
}
