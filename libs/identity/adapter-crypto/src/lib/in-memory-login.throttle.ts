import {
  DEFAULT_LOGIN_THROTTLE,
  familiarKeyOf,
  LoginAttempt,
  LoginThrottle,
  LoginThrottlePolicy,
  ruledKeysOf,
  throttleDelayMs,
} from '@lnk/identity/domain';
import { clientAddressKey } from '@lnk/shared/client-address';
import { BoundedCache } from '@lnk/shared/cache';
import { RateLimitedError } from '@lnk/shared/kernel';

interface Count {
  count: number;
  since: number;
}

/**
 * Keys counted (and familiar keys remembered) at most, each: past it the least recently seen goes first. A
 * flood of distinct addresses (or e-mails) cannot grow the process without end; the keys under attack are
 * read at every attempt on them, so they stay.
 */
export const LOGIN_THROTTLE_MAX_KEYS = 100_000;

/**
 * Per-process attempt counts (one instance; RedisLoginThrottle shares them between instances and falls
 * back on this one). An attempt is counted as a failure when it is admitted, before anything is awaited,
 * so parallel attempts see each other; a success or a withdrawal takes it back. Each counted failure
 * beyond a rule's free ones slows the next attempt a little; past a rule's maximum the key gets 429 until
 * its window passes, unless the rule is waived for a familiar key that succeeded lately.
 */
export class InMemoryLoginThrottle extends LoginThrottle {
  private readonly counts: BoundedCache<string, Count>;
  /** Familiar keys (policy.familiar) and until when they are remembered. */
  private readonly familiar: BoundedCache<string, number>;

  constructor(
    private readonly policy: LoginThrottlePolicy = DEFAULT_LOGIN_THROTTLE,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    maxKeys = LOGIN_THROTTLE_MAX_KEYS,
  ) {
    super();
    this.counts = new BoundedCache({ maxEntries: maxKeys, now });
    this.familiar = new BoundedCache({ maxEntries: maxKeys, now });
  }

  async admit(keys: string[]): Promise<LoginAttempt> {
    const ruled = ruledKeysOf(this.policy, keys);
    const familiarKey = familiarKeyOf(this.policy, keys);
    const familiar = familiarKey !== undefined && this.isFamiliar(familiarKey);
    const before = ruled.map(({ key, rule }) => ({ key, rule, failures: this.current(key)?.count ?? 0 }));
    for (const { key, rule, failures } of before) {
      if (failures < rule.maxFailures || (familiar && rule.waivedWhenFamiliar)) continue;
      const entry = this.current(key) as Count;
      throw new RateLimitedError(Math.max(1, Math.ceil((entry.since + this.policy.windowMs - this.now()) / 1000)));
    }
    const counted = ruled.map(({ key, rule }) => {
      const entry = this.current(key) ?? { count: 0, since: this.now() };
      this.keep(key, { ...entry, count: entry.count + 1 });
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
        if (count > 0) this.keep(key, { ...entry, count });
        else this.counts.delete(key);
      }
      if (forgive && familiarKey !== undefined && this.policy.familiar) this.remember(familiarKey, this.now() + this.policy.familiar.forMs);
    };
    return { succeeded: () => settle(true), withdraw: () => settle(false) };
  }

  addressKey(address: string): string {
    return clientAddressKey(address);
  }

  /** Past the bound the longest unused go first; an entry is dropped once its time has passed. */
  private remember(key: string, until: number): void {
    this.familiar.set(key, until, until - this.now());
  }

  /** Held until its window passes (or it is pushed out). */
  private keep(key: string, entry: Count): void {
    this.counts.set(key, entry, entry.since + this.policy.windowMs - this.now());
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

  /** Keys counted now (those whose window passed and were not looked up since included). */
  get keysHeld(): number {
    return this.counts.size;
  }
}
