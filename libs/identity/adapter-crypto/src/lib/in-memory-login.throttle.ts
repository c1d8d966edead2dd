import {
  DEFAULT_LOGIN_THROTTLE,
  familiarKeyOf,
  LoginAttempt,
  LoginThrottle,
  LoginThrottlePolicy,
  throttleDelayMs,
  ThrottleRule,
  throttleRuleOf,
} from '@lnk/identity/domain';
import { clientAddressKey } from '@lnk/shared/client-address';
import { RateLimitedError } from '@lnk/shared/kernel';

interface Count {
  count: number;
  since: number;
}

/** Entries past which expired ones are swept (counts and remembered successes alike). */
const SWEEP_ABOVE = 100_000;

/**
 * Per-process attempt counts (one instance; RedisLoginThrottle shares them between instances and falls
 * back on this one). An attempt is counted as a failure when it is admitted, before anything is awaited,
 * so parallel attempts see each other; a success or a withdrawal takes it back. Each counted failure
 * beyond a rule's free ones slows the next attempt a little; past a rule's maximum the key gets 429 until
 * its window passes, unless the rule is waived for a familiar key that succeeded lately.
 */
export class InMemoryLoginThrottle extends LoginThrottle {
  private readonly counts = new Map<string, Count>();
  /** Familiar keys (policy.familiar) and until when they are remembered. */
  private readonly familiar = new Map<string, number>();

  constructor(
    private readonly policy: LoginThrottlePolicy = DEFAULT_LOGIN_THROTTLE,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    super();
  }

  async admit(keys: string[]): Promise<LoginAttempt> {
    const ruled = keys
      .map((key) => ({ key, rule: throttleRuleOf(this.policy, key) }))
      .filter((k): k is { key: string; rule: ThrottleRule } => k.rule !== undefined);
    const familiarKey = familiarKeyOf(this.policy, keys);
    const familiar = familiarKey !== undefined && this.isFamiliar(familiarKey);
    const before = ruled.map(({ key, rule }) => ({ key, rule, failures: this.current(key)?.count ?? 0 }));
    for (const { key, rule, failures } of before) {
      if (failures < rule.maxFailures || (familiar && rule.waivedWhenFamiliar)) continue;
      const entry = this.current(key) as Count;
      throw new RateLimitedError(Math.max(1, Math.ceil((entry.since + this.policy.windowMs - this.now()) / 1000)));
    }
    if (this.counts.size > SWEEP_ABOVE) this.prune();
    const counted = ruled.map(({ key, rule }) => {
      const entry = this.current(key) ?? { count: 0, since: this.now() };
      this.counts.set(key, { ...entry, count: entry.count + 1 });
      return { key, rule, since: entry.since };
    });
    const delay = throttleDelayMs(this.policy, before);
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
      if (forgive && familiarKey !== undefined && this.policy.familiar) this.remember(familiarKey, this.now() + this.policy.familiar.forMs);
    };
    return { succeeded: () => settle(true), withdraw: () => settle(false) };
  }

  addressKey(address: string): string {
    return clientAddressKey(address);
  }

  /** Kept in the order last remembered, so that past the bound the longest unused go first. */
  private remember(key: string, until: number): void {
    this.familiar.delete(key);
    this.familiar.set(key, until);
    if (this.familiar.size <= SWEEP_ABOVE) return;
    this.prune();
    for (const oldest of this.familiar.keys()) {
      if (this.familiar.size <= SWEEP_ABOVE) break;
      this.familiar.delete(oldest);
    }
  }

  private isFamiliar(key: string): boolean {
    const until = this.familiar.get(key);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.familiar.delete(key);
    return false;
  }

  private current(key: string): Count | undefined {
    const entry = this.counts.get(key);
    if (entry && entry.since + this.policy.windowMs <= this.now()) {
      this.counts.delete(key);
      return undefined;
    }
    return entry;
  }

  private prune(): void {
    for (const key of [...this.counts.keys()]) this.current(key);
    for (const key of [...this.familiar.keys()]) this.isFamiliar(key);
  }
}
