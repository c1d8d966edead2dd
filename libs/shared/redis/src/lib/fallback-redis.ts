import { Redis } from 'ioredis';
import { closeRedis, REDIS_CONNECTION_OPTIONS } from './redis-bus';

export interface FallbackRedisOptions {
  keyPrefix: string;
  /** No answer within this: the command fails, and counting moves into the process for a second. */
  commandTimeoutMs: number;
  onError(error: Error): void;
}

/**
 * The Redis connection of counts shared by every instance that fall back on a count in this process while
 * Redis does not answer (the login throttle's, the password form's): no offline queue, so while
 * disconnected a command fails at once and the caller counts locally; after a command failed on an open
 * connection, `shared` stays false for a second, so requests meanwhile do not each wait on a timeout.
 */
export class FallbackRedis {
  readonly redis: Redis;
  /** After a command failed on an open connection: counted locally until then. */
  private localUntil = 0;

  constructor(url: string, options: FallbackRedisOptions) {
    this.redis = new Redis(url, {
      ...REDIS_CONNECTION_OPTIONS,
      enableOfflineQueue: false,
      commandTimeout: options.commandTimeoutMs,
      keyPrefix: options.keyPrefix,
    });
    this.redis.on('error', (error: Error) => options.onError(error));
    this.redis.on('ready', () => (this.localUntil = 0));
  }

  /** Whether counts go to Redis now (false: they are counted in this process). */
  get shared(): boolean {
    return this.redis.status === 'ready' && Date.now() >= this.localUntil;
  }

  /** A command failed: count in this process for a second before asking Redis again. */
  failed(): void {
    this.localUntil = Date.now() + 1000;
  }

  /** Settles once Redis answers, or after `timeoutMs` (counts meanwhile are kept in this process, as when Redis is away). */
  connected(timeoutMs = 2000): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    return closeRedis(this.redis);
  }
}
