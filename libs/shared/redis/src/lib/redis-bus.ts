import { Redis } from 'ioredis';

type Handler = (message: unknown) => void;

/**
 * Messages between the instances of the service over Redis pub/sub (cache invalidations). Publishing is
 * fire-and-forget: a message lost while Redis is away is covered by the caches' TTLs.
 */
export class RedisBus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Handler[]>();

  constructor(url: string, private readonly onError: (error: Error) => void = () => undefined) {
    const options = { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: true };
    this.publisher = new Redis(url, options);
    this.subscriber = new Redis(url, options);
    this.publisher.on('error', onError);
    this.subscriber.on('error', onError);
    this.subscriber.on('message', (channel: string, payload: string) => {
      let message: unknown;
      try {
        message = JSON.parse(payload);
      } catch {
        return;
      }
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
  }

  async subscribe(channel: string, handler: Handler): Promise<void> {
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
    await this.subscriber.subscribe(channel);
  }

  publish(channel: string, message: unknown): void {
    this.publisher.publish(channel, JSON.stringify(message)).catch((error: Error) => this.onError(error));
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()]);
  }
}
