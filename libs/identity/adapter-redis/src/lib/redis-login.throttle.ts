import { createHash, randomBytes } from 'node:crypto';
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
import { RateLimitedError } from '@lnk/shared/kernel';
import { FallbackRedis, LOGIN_THROTTLE_KEY_PREFIX } from '@lnk/shared/redis';

/**
 * One round trip, atomic: refuses (counting nothing) when a key is at its maximum, unless the rule is
 * waived and the familiar key (the last KEYS) exists; otherwise counts the attempt on every key, each a
 * hash {c: failures, w: its window's id} living ARGV[1] ms from its first failure. KEYS[1..n]: the keys;
 * ARGV[2]: a new window's id; ARGV[3..n+2]: each key's maximum (-1: none); ARGV[n+3..2n+2]: '1' when
 * the key's rule is waived for a familiar attempt. Returns {-1, ms left} refused, or {0, then per key:
 * its failures before this one, its window's id}.
 */
const ADMIT = `
local n = #KEYS - 1
local familiar = redis.call('EXISTS', KEYS[n + 1]) == 1
local before = {}
for i = 1, n do
  before[i] = tonumber(redis.call('HGET', KEYS[i], 'c') or '0')
  local max = tonumber(ARGV[2 + i])
  if max >= 0 and before[i] >= max and not (familiar and ARGV[2 + n + i] == '1') then
    return { -1, redis.call('PTTL', KEYS[i]) }
  end
end
local out = { 0 }
for i = 1, n do
  if redis.call('HINCRBY', KEYS[i], 'c', 1) == 1 then
    redis.call('HSET', KEYS[i], 'w', ARGV[2])
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
  end
  out[#out + 1] = before[i]
  out[#out + 1] = redis.call('HGET', KEYS[i], 'w')
end
return out`;

/**
 * Takes an attempt back from each key still in the window it was counted in (ARGV[2i]: that window's id;
 * ARGV[2i+1]: '1' forgives all the key's failures), and on a success remembers the familiar key (the last
 * KEYS) for ARGV[1] ms (0: not).
 */
const SETTLE = `
local n = #KEYS - 1
for i = 1, n do
  if redis.call('HGET', KEYS[i], 'w') == ARGV[2 * i] then
    if ARGV[2 * i + 1] == '1' or redis.call('HINCRBY', KEYS[i], 'c', -1) <= 0 then redis.call('DEL', KEYS[i]) end
  end
end
if tonumber(ARGV[1]) > 0 then redis.call('SET', KEYS[n + 1], '1', 'PX', ARGV[1]) end
return 1`;

export interface RedisLoginThrottleOptions {
  policy?: LoginThrottlePolicy;
  /** Counts attempts while Redis does not answer: the same policy in this process (an InMemoryLoginThrottle). */
  fallback: LoginThrottle;
  onError(error: Error): void;
  /** Counting moved into the process (Redis did not answer), or back to Redis. */
  onFallback?(local: boolean): void;
  commandTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** A key as Redis holds it: its kind in clear, the rest (an e-mail address, an address) as a SHA-256. */
function redisKey(key: string, kind = key.slice(0, key.indexOf(':') + 1)): string {
  return `${kind}${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * The sign-in throttle's counts in Redis, so an account's budget holds across every instance: a guesser
 * spreading attempts over instances (or addresses) gets no more. Each admission is one script, checked
 * and counted at once, before the secret is checked. When Redis does not answer (not connected, or no
 * answer within `commandTimeoutMs`: 0.5 s), attempts are counted by `fallback` in this process with the
 * same policy, so an outage neither opens the door nor holds sign-ins up; each instance then grants its
 * own budget. Back to Redis as soon as it is connected again.
 */
export class RedisLoginThrottle extends LoginThrottle {
  private readonly connection: FallbackRedis;
  private readonly policy: LoginThrottlePolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private counting: 'redis' | 'local' = 'redis';

  constructor(
    url: string,
    private readonly options: RedisLoginThrottleOptions,
  ) {
    super();
    this.policy = options.policy ?? DEFAULT_LOGIN_THROTTLE;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.connection = new FallbackRedis(url, {
      keyPrefix: LOGIN_THROTTLE_KEY_PREFIX,
      commandTimeoutMs: options.commandTimeoutMs ?? 500,
      onError: (error) => options.onError(error),
    });
  }

  /** Whether attempts are counted in Redis now (false: in this process). */
  get shared(): boolean {
    return this.connection.shared;
  }

  /** Settles once Redis answers, or after `timeoutMs` (attempts meanwhile are counted in this process). */
  connected(timeoutMs?: number): Promise<void> {
    return this.connection.connected(timeoutMs);
  }

  // The same key in Redis and in the fallback: an address counts alike wherever it is counted.
  addressKey(address: string): string {
    return clientAddressKey(address);
  }

  async admit(keys: string[]): Promise<LoginAttempt> {
    if (!this.shared) return this.local(keys);
    const ruled = ruledKeysOf(this.policy, keys);
    const familiarKey = familiarKeyOf(this.policy, keys);
    const familiar = familiarKey === undefined ? 'familiar:none' : redisKey(familiarKey, 'familiar:');
    const redisKeys = ruled.map(({ key }) => redisKey(key));
    let answer: (number | string)[];
    try {
      answer = (await this.connection.redis.eval(
        ADMIT,
        redisKeys.length + 1,
        ...redisKeys,
        familiar,
        this.policy.windowMs,
        randomBytes(8).toString('hex'),
        ...ruled.map(({ rule }) => (Number.isFinite(rule.maxFailures) ? rule.maxFailures : -1)),
        ...ruled.map(({ rule }) => (rule.waivedWhenFamiliar ? '1' : '0')),
      )) as (number | string)[];
    } catch (error) {
      this.options.onError(error as Error);
      this.connection.failed();
      return this.local(keys);
    }
    this.countingIn('redis');
    if (answer[0] === -1) throw new RateLimitedError(Math.max(1, Math.ceil(Number(answer[1]) / 1000)));
    const counted = ruled.map(({ rule }, i) => ({ rule, failures: Number(answer[1 + 2 * i]), window: String(answer[2 + 2 * i]) }));
    const delay = throttleDelayMs(this.policy, counted);
    if (delay > 0) await this.sleep(delay);

    let settled = false;
    const settle = (forgive: boolean) => {
      if (settled) return;
      settled = true;
      const remember = forgive && familiarKey !== undefined && this.policy.familiar ? this.policy.familiar.forMs : 0;
      const args = counted.flatMap(({ rule, window }) => [window, forgive && rule.forgivenBySuccess ? '1' : '0']);
      // Not awaited: the caller's answer does not wait on it. Lost (Redis gone meanwhile), the attempt
      // stays counted as a failure until its window ends: the safe side.
      this.connection.redis
        .eval(SETTLE, redisKeys.length + 1, ...redisKeys, familiar, remember, ...args)
        .catch((error: Error) => this.options.onError(error));
    };
    return { succeeded: () => settle(true), withdraw: () => settle(false) };
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  private local(keys: string[]): Promise<LoginAttempt> {
    this.countingIn('local');
    return this.options.fallback.admit(keys);
  }

  private countingIn(where: 'redis' | 'local'): void {
    if (where === this.counting) return;
    this.counting = where;
    this.options.onFallback?.(where === 'local');
  }
}
