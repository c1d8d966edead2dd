import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';
import { RedisBus } from './redis-bus';

const url = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * A proxy to Redis that can stop passing bytes while its connections stay open (`stall`: a partition, or a
 * stuck server, as the client sees them), or drop them all and refuse new ones (`cut`).
 */
async function startProxy(): Promise<{ url: string; stall(): void; cut(): void; restore(): void; close(): Promise<void> }> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let mode: 'pass' | 'stall' | 'cut' = 'pass';
  const server: Server = createServer((client) => {
    if (mode === 'cut') return client.destroy();
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 6379) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => (sockets.delete(socket), client.destroy(), upstream.destroy()));
    }
    client.on('data', (chunk) => mode === 'pass' && upstream.write(chunk));
    upstream.on('data', (chunk) => mode === 'pass' && client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  const dropAll = () => sockets.forEach((socket) => socket.destroy());
  return {
    url: proxied.toString(),
    stall: () => (mode = 'stall'),
    cut: () => ((mode = 'cut'), dropAll()),
    restore: () => (mode = 'pass'),
    close: async () => {
      dropAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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

  // A CLI command opens a bus, publishes and closes it at once, often while the connections are still coming
  // up: its message must still go out (a revoked token the servers would otherwise keep accepting), and a
  // subscription the close overtook is no fault to report (the CLI's stderr is its answer to the operator).
  it('sends what was published before a close that came right after the open, and reports nothing', async () => {
    const channel = `lnk-test-${Date.now()}`;
    const listener = new RedisBus(url);
    const received: unknown[] = [];
    const errors: string[] = [];
    try {
      await listener.subscribe(channel, (message) => received.push(message));
      for (let n = 0; n < 40; n++) {
        const bus = new RedisBus(url, (error) => errors.push(error.message));
        bus.publish(channel, { n });
        if (n % 20) await new Promise((resolve) => setTimeout(resolve, n % 20));
        else await new Promise((resolve) => setImmediate(resolve));
        await bus.close();
      }
      await until('every message arrived', () => received.length === 40);
      expect(errors).toEqual([]);
    } finally {
      await listener.close();
    }
  });

  // A connection that stays open while Redis no longer answers delivers nothing: without the heartbeat the
  // bus would call itself up, and the caches keep their full TTL, for as long as the partition lasts.
  it('counts a connection that stops answering as lost within the heartbeat, and subscribes again by itself when it answers', async () => {
    const proxy = await startProxy();
    const channel = `lnk-test-stall-${Date.now()}`;
    const bus = new RedisBus(proxy.url, () => undefined, { heartbeatMs: 200 });
    const publisher = new RedisBus(url);
    const states: boolean[] = [];
    let missed = 0;
    const received: unknown[] = [];
    try {
      bus.onStateChange((up) => states.push(up));
      bus.onMissed(() => missed++);
      await bus.subscribe(channel, (message) => received.push(message));
      expect(bus.up).toBe(true);
      proxy.stall();
      await until('the bus sees the stall', () => !bus.up, 2000);
      proxy.restore();
      await until('the bus is subscribed again', () => bus.up, 5000);
      expect(states).toEqual([true, false, true]);
      expect(missed).toBe(1);
      publisher.publish(channel, { after: true });
      await until('a message after the return arrives', () => received.length === 1);
    } finally {
      await Promise.all([bus.close(), publisher.close(), proxy.close()]);
    }
  });

  // A publisher cut off from Redis loses its messages, while the others' subscriptions may never have
  // dropped (they would not know to empty their caches): it tells them to, once it reaches Redis again.
  it('tells every subscriber to resync once it can publish again after messages it could not send', async () => {
    const proxy = await startProxy();
    const publisher = new RedisBus(proxy.url);
    const subscriber = new RedisBus(url);
    let missed = 0;
    try {
      subscriber.onMissed(() => missed++);
      await subscriber.subscribe(`lnk-test-resync-${Date.now()}`, () => undefined);
      proxy.cut();
      // Once the publisher has seen its connection go (a command written before would be sent again on return).
      await new Promise((resolve) => setTimeout(resolve, 100));
      publisher.publish('lnk-test-lost', { lost: true });
      // The message fails (one reconnection attempt at most), then Redis answers again.
      await new Promise((resolve) => setTimeout(resolve, 500));
      proxy.restore();
      await until('the subscriber is told to resync', () => missed === 1);
      expect(subscriber.up).toBe(true);
    } finally {
      await Promise.all([publisher.close(), subscriber.close(), proxy.close()]);
    }
  });

  // The degraded mode of the caches: nothing cached lives longer than the outage TTL while Redis is away,
  // nothing cached before a missed message is kept once it is back, and start-up without Redis neither
  // fails nor waits.
  it('empties guarded caches when Redis goes, every outage TTL while it is away, and when it is back; starts without it', async () => {
    const proxy = await startProxy();
    proxy.cut();
    const bus = new RedisBus(proxy.url, () => undefined, { heartbeatMs: 200, connectTimeoutMs: 500 });
    let emptied = 0;
    try {
      bus.guardCaches(() => emptied++, 100);
      // Settles (after connectTimeoutMs at most), though no subscription can be made.
      await bus.subscribe('lnk-test-guard', () => undefined);
      expect(bus.up).toBe(false);
      await until('emptied every outage TTL while away', () => emptied >= 3, 2000);
      proxy.restore();
      await until('subscribed once Redis answers', () => bus.up, 5000);
      const afterReturn = emptied;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(emptied).toBe(afterReturn);
      proxy.cut();
      await until('emptied when Redis goes', () => emptied > afterReturn, 2000);
    } finally {
      await Promise.all([bus.close(), proxy.close()]);
    }
  });
});
