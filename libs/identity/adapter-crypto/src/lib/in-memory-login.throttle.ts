import { LoginThrottle } from '@lnk/identity/domain';
import { RateLimitedError } from '@lnk/shared/kernel';

export interface LoginThrottleOptions {
  /** Failures within the window after which a key is refused. */
  maxFailures: number;
  windowMs: number;
  /** Added delay per earlier failure before an attempt is answered, capped at maxDelayMs. */
  delayStepMs: number;
  maxDelayMs: number;
}

/**
 * Per-process failure counts (one instance: enough for one process; several instances each count on
 * their own). Each failure slows the next attempt a little; past `maxFailures` the key gets 429 until
 * its window passes.
 */
export class InMemoryLoginThrottle extends LoginThrottle {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly options: LoginThrottleOptions = { maxFailures: 10, windowMs: 15 * 60_000, delayStepMs: 200, maxDelayMs: 2000 },
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    super();
  }

  async admit(keys: string[]): Promise<void> {
    let worst = 0;
    for (const key of keys) {
      const entry = this.current(key);
      if (!entry) continue;
      if (entry.count >= this.options.maxFailures) {
        throw new RateLimitedError(Math.max(1, Math.ceil((entry.since + this.options.windowMs - this.now()) / 1000)));
      }
      worst = Math.max(worst, entry.count);
    }
    const delay = Math.min(worst * this.options.delayStepMs, this.options.maxDelayMs);
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
    for (const key of keys) this.failures.delete(key);
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
