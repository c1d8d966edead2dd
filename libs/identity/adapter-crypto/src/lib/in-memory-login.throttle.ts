import { LoginAttempt, LoginThrottle } from '@lnk/identity/domain';
import { RateLimitedError } from '@lnk/shared/kernel';

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
    // Failures against an account from anywhere only slow it down: refusing it would let anyone lock
    // its owner out.
    { prefix: 'account:', maxFailures: Infinity, freeFailures: 5, forgivenBySuccess: false },
    { prefix: 'account-ip:', maxFailures: 10, freeFailures: 0, forgivenBySuccess: true },
    { prefix: 'ip:', maxFailures: 100, freeFailures: 20, forgivenBySuccess: false },
  ],
  windowMs: 15 * 60_000,
  delayStepMs: 200,
  maxDelayMs: 2000,
};

interface Count {
  count: number;
  since: number;
}

/**
 * Per-process attempt counts (several instances each count on their own). An attempt is counted as a
 * failure when it is admitted, before anything is awaited, so parallel attempts see each other; a
 * success or a withdrawal takes it back. Each counted failure beyond a rule's free ones slows the next
 * attempt a little; past a rule's maximum the key gets 429 until its window passes.
 */
export class InMemoryLoginThrottle extends LoginThrottle {
  private readonly counts = new Map<string, Count>();

  constructor(
    private readonly options: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    super();
  }

  async admit(keys: string[]): Promise<LoginAttempt> {
    const ruled = keys.map((key) => ({ key, rule: this.ruleOf(key) })).filter((k): k is { key: string; rule: ThrottleRule } => k.rule !== undefined);
    let slowest = 0;
    for (const { key, rule } of ruled) {
      const entry = this.current(key);
      if (!entry) continue;
      if (entry.count >= rule.maxFailures) {
        throw new RateLimitedError(Math.max(1, Math.ceil((entry.since + this.options.windowMs - this.now()) / 1000)));
      }
      slowest = Math.max(slowest, entry.count - rule.freeFailures);
    }
    if (this.counts.size > 100_000) this.prune();
    const counted = ruled.map(({ key, rule }) => {
      const entry = this.current(key) ?? { count: 0, since: this.now() };
      this.counts.set(key, { ...entry, count: entry.count + 1 });
      return { key, rule, since: entry.since };
    });
    const delay = Math.min(slowest * this.options.delayStepMs, this.options.maxDelayMs);
    if (delay > 0) await this.sleep(delay);

    let settled = false;
    const settle = (forgive: boolean) => {
      if (settled) return;
      settled = true;
      for (const { key, rule, since } of counted) {
        const entry = this.current(key);
        // A window that has passed since took the attempt with it.
        if (!entry || entry.since !== since) continue;
        const count = forgive && rule.forgivenBySuccess ? 0 : entry.count - 1;
        if (count > 0) this.counts.set(key, { ...entry, count });
        else this.counts.delete(key);
      }
    };
    return { succeeded: () => settle(true), withdraw: () => settle(false) };
  }

  private ruleOf(key: string): ThrottleRule | undefined {
    return this.options.rules.find((r) => key.startsWith(r.prefix));
  }

  private current(key: string): Count | undefined {
    const entry = this.counts.get(key);
    if (entry && entry.since + this.options.windowMs <= this.now()) {
      this.counts.delete(key);
      return undefined;
    }
    return entry;
  }

  private prune(): void {
    for (const key of [...this.counts.keys()]) this.current(key);
  }
}
