import { RedisBus } from './redis-bus';

const url = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('RedisBus against the Redis server', () => {
  it('delivers a message published by one instance to the subscribers of another', async () => {
    const channel = `lnk-test-${Date.now()}`;
    const [a, b] = [new RedisBus(url), new RedisBus(url)];
    try {
      let deliver!: (message: unknown) => void;
      const received = new Promise((resolve) => (deliver = resolve));
      await b.subscribe(channel, (message) => deliver(message));
      a.publish(channel, { slug: 'promo', domainId: null });
      await expect(received).resolves.toEqual({ slug: 'promo', domainId: null });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
