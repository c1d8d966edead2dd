import { Redis, RedisOptions } from 'ioredis';
import { CACHE_CHANNELS } from './channels';

type Handler = (message: unknown) => void;

export interface RedisBusOptions {
  /** The subscription is pinged this often; no answer within as long: the connection is dropped and made again. */
  heartbeatMs?: number;
  /** How long `subscribe` waits for Redis before it gives up waiting (the bus goes on trying in the background). */
  connectTimeoutMs?: number;
}

/**
 * The options every connection of the service to Redis takes: a command waits at most one reconnection
 * attempt (no queue that grows while Redis is away), a connection attempt at most `connectTimeout`, and
 * the attempts go on every 0.1 to 1 s for as long as the process lives. A connection closed (or dropped
 * for a silent one) is destroyed after `disconnectTimeout` at most (ioredis's 2 s timer also held a process
 * that closed while Redis was away).
 */
export const REDIS_CONNECTION_OPTIONS = {
  maxRetriesPerRequest: 1,
  connectTimeout: 2000,
  disconnectTimeout: 500,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
} satisfies RedisOptions;

/** Closes a connection without waiting on a Redis that does not answer. */
export async function closeRedis(redis: Redis, timeoutMs = 1000): Promise<void> {
  if (redis.status !== 'ready') return redis.disconnect();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([redis.quit().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  redis.disconnect();
}

/**
 * Messages between the instances of the service over Redis pub/sub (cache invalidations). Publishing is
 * fire-and-forget. Messages are lost while Redis is away, so the bus says when that may have happened:
 * `up` is false while the subscription is not in place (Redis unreachable, or silent past a heartbeat),
 * and the `onMissed` listeners run whenever this instance may have missed messages: the subscription is
 * back after a loss, or another instance could not publish some and says so once it can (the resync
 * message). The apps empty their caches then, and keep them short-lived while `up` is false.
 */
export class RedisBus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly missedListeners: (() => void)[] = [];
  private readonly stateListeners: ((up: boolean) => void)[] = [];
  private readonly heartbeat: NodeJS.Timeout;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly connectTimeoutMs: number;
  private subscribed = false;
  private everSubscribed = false;
  /** Publishes that failed since the publisher was last connected: the others are told to resync. */
  private unsent = 0;
  /** Publishes not answered yet: a close waits for them (a CLI command publishes, then closes at once). */
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    url: string,
    private readonly onError: (error: Error) => void = () => undefined,
    options: RedisBusOptions = {},
  ) {
    const heartbeatMs = options.heartbeatMs ?? 1000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 2000;
    // The publisher queues while it connects (a CLI command publishes at once), for one attempt at most.
    this.publisher = new Redis(url, { ...REDIS_CONNECTION_OPTIONS, commandTimeout: 2000 });
    // The subscriber sends nothing but SUBSCRIBE (on every connection) and PING; it resubscribes itself.
    this.subscriber = new Redis(url, { ...REDIS_CONNECTION_OPTIONS, enableOfflineQueue: false, autoResubscribe: false });
    this.publisher.on('error', (error: Error) => this.report(error));
    this.subscriber.on('error', (error: Error) => this.report(error));
    this.subscriber.on('message', (channel: string, payload: string) => {
      if (channel === CACHE_CHANNELS.resync) return this.missed();
      let message: unknown;
      try {
        message = JSON.parse(payload);
      } catch {
        return;
      }
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
    this.subscriber.on('ready', () => void this.subscribeAll());
    this.subscriber.on('close', () => this.setSubscribed(false));
    this.publisher.on('ready', () => {
      if (this.unsent === 0) return;
      this.unsent = 0;
      this.publish(CACHE_CHANNELS.resync, {});
    });
    this.heartbeat = setInterval(() => void this.ping(heartbeatMs), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Whether messages reach this instance now (subscribed on a connection that answers). */
  get up(): boolean {
    return this.subscribed;
  }

  /** Told each time the subscription is lost (false) or in place again (true). */
  onStateChange(listener: (up: boolean) => void): void {
    this.stateListeners.push(listener);
  }

  /** Told each time this instance may have missed messages (see the class). */
  onMissed(listener: () => void): void {
    this.missedListeners.push(listener);
  }

  /**
   * Listens on `channel`. While the first connection is being made, waits for the subscription at most
   * `connectTimeoutMs`; Redis away, it is made by itself once Redis answers.
   */
  async subscribe(channel: string, handler: Handler): Promise<void> {
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
    if (this.subscriber.status === 'ready') {
      await this.subscriber.subscribe(channel).catch((error: Error) => this.report(error));
    }
    // Waits for the first connection only: once an attempt has failed, Redis is away and start-up goes on.
    if (!this.subscribed && ['wait', 'connecting', 'connect'].includes(this.subscriber.status)) await this.whenUp(this.connectTimeoutMs);
  }

  publish(channel: string, message: unknown): void {
    const sent = this.publisher.publish(channel, JSON.stringify(message)).catch((error: Error) => {
      this.unsent++;
      this.report(error);
      // Timed out on a connection that looks open: made again, so that the resync goes out once it answers.
      if (this.publisher.status === 'ready' && !this.closed) this.publisher.disconnect(true);
    });
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  /**
   * Keeps caches this bus invalidates honest while it cannot: `empty` runs whenever messages may have been
   * missed, when the subscription is lost, and every `outageTtlMs` while it is: nothing cached lives
   * longer than that while Redis is away, and nothing cached before a lost message outlives its return.
   */
  guardCaches(empty: () => void, outageTtlMs: number): void {
    this.onMissed(empty);
    this.onStateChange((up) => up || empty());
    const timer = setInterval(() => this.subscribed || empty(), outageTtlMs);
    timer.unref();
    this.timers.push(timer);
  }

  /** Closes both connections once the publishes made so far are answered (each within its command timeout). */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const timer of this.timers) clearInterval(timer);
    await Promise.allSettled([...this.inFlight]);
    this.closed = true;
    await Promise.all([closeRedis(this.publisher), closeRedis(this.subscriber)]);
  }

  private async subscribeAll(): Promise<void> {
    try {
      await this.subscriber.subscribe(CACHE_CHANNELS.resync, ...this.handlers.keys());
      this.setSubscribed(true);
    } catch (error) {
      this.report(error as Error);
    }
  }

  /**
   * An error of a connection, told unless the bus is closing: a command that a close overtook (a
   * subscription made as the connection came up while a short CLI command already closed it) is no fault.
   */
  private report(error: Error): void {
    if (!this.closed) this.onError(error);
  }

  private setSubscribed(up: boolean): void {
    if (this.closed || up === this.subscribed) return;
    this.subscribed = up;
    for (const listener of [...this.stateListeners]) listener(up);
    if (!up) return;
    // Messages published while this instance was not subscribed are lost: the caches are emptied.
    if (this.everSubscribed) this.missed();
    this.everSubscribed = true;
  }

  private missed(): void {
    for (const listener of this.missedListeners) listener();
  }

  /** A connection that stays open but no longer answers (a partition, a stuck server) counts as lost. */
  private async ping(timeoutMs: number): Promise<void> {
    if (this.subscriber.status !== 'ready') return;
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      this.subscriber.ping().then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (answered || this.closed || this.subscriber.status !== 'ready') return;
    this.report(new Error(`no answer to a ping within ${timeoutMs} ms: reconnecting`));
    this.setSubscribed(false);
    this.subscriber.disconnect(true);
  }

  private whenUp(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      const listener = (up: boolean) => up && done();
      this.stateListeners.push(listener);
      const stateListeners = this.stateListeners;
      function done() {
        clearTimeout(timer);
        const at = stateListeners.indexOf(listener);
        if (at >= 0) stateListeners.splice(at, 1);
        resolve();
      }
    });
  }
}
