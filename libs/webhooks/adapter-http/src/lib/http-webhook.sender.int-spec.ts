import { createServer, Server } from 'node:http';
import { AddressInfo, LookupFunction } from 'node:net';
import { DESTINATION_REFUSED } from '@lnk/webhooks/domain';
import { HttpWebhookSender } from './http-webhook.sender';
import { NodeDestinationGuard } from './node-destination.guard';

/** A loopback HTTP server counting the requests it got. */
async function server(
  handler: (res: import('node:http').ServerResponse) => void,
): Promise<{ port: number; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const s: Server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => handler(res));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    port: (s.address() as AddressInfo).port,
    hits: () => hits,
    close: () =>
      new Promise((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

/** A resolver that answers `address` for every name: a DNS rebinding attack, as the sender sees it. */
const resolvingTo = (address: string): LookupFunction =>
  ((_host: string, options: { all?: boolean }, callback: (e: Error | null, a: unknown, f?: number) => void) =>
    options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4)) as unknown as LookupFunction;

describe('HttpWebhookSender: safe outbound requests', () => {
  it('refuses at connect time a name that resolves to loopback when private addresses are not allowed (DNS rebinding)', async () => {
    const s = await server((res) => res.end());
    try {
      // The name passed the creation check once (public then); now it resolves to 127.0.0.1.
      const rebound = new HttpWebhookSender({ allowPrivate: false, lookup: resolvingTo('127.0.0.1') });
      const result = await rebound.send(`http://hooks.example.com:${s.port}/x`, {}, '{}');
      expect(result).toEqual({ status: null, error: DESTINATION_REFUSED });
      const viaLocalhost = await new HttpWebhookSender({ allowPrivate: false }).send(`http://localhost:${s.port}/x`, {}, '{}');
      expect(viaLocalhost).toEqual({ status: null, error: DESTINATION_REFUSED });
      expect(s.hits()).toBe(0);
      // With WEBHOOKS_ALLOW_PRIVATE the same request goes through.
      expect((await new HttpWebhookSender({ allowPrivate: true }).send(`http://localhost:${s.port}/x`, {}, '{}')).status).toBe(200);
      expect(s.hits()).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('refuses link-local and metadata addresses even when private ones are allowed, by name or literal', async () => {
    const sender = new HttpWebhookSender({ allowPrivate: true, lookup: resolvingTo('169.254.169.254'), timeoutMs: 2000 });
    expect((await sender.send('http://metadata.example/latest', {}, '{}')).error).toBe(DESTINATION_REFUSED);
    expect((await sender.send('http://169.254.169.254/latest', {}, '{}')).error).toBe(DESTINATION_REFUSED);
    expect((await sender.send('http://[fd00:ec2::254]/latest', {}, '{}')).error).toBe(DESTINATION_REFUSED);
  });

  // Issue 27, finding 9: the owner reads lastError. Node's messages name what the resolver and the network
  // saw ("getaddrinfo ENOTFOUND intranet.corp", "DNS lookup 10.1.2.3 ... is not allowed", "connect
  // ECONNREFUSED 10.0.0.5:443"): fixed texts instead, one for a host refused or not resolving.
  it('words every failure in a fixed text naming no address or host', async () => {
    const nowhere = ((_host: string, _options: object, callback: (e: Error | null) => void) =>
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND intranet.corp'), { code: 'ENOTFOUND' }))) as unknown as LookupFunction;
    const strict = new HttpWebhookSender({ allowPrivate: false, lookup: resolvingTo('10.1.2.3') });
    const closed = await server((res) => res.end());
    await closed.close();
    const results = [
      await new HttpWebhookSender({ allowPrivate: true, lookup: nowhere }).send('http://intranet.corp/x', {}, '{}'),
      await strict.send('https://intranet.corp/x', {}, '{}'),
      await strict.send('https://10.1.2.3/x', {}, '{}'),
      await new HttpWebhookSender({ allowPrivate: true }).send(`http://127.0.0.1:${closed.port}/x`, {}, '{}'),
    ];
    expect(results).toEqual([
      { status: null, error: DESTINATION_REFUSED },
      { status: null, error: DESTINATION_REFUSED },
      { status: null, error: DESTINATION_REFUSED },
      { status: null, error: 'the connection was refused' },
    ]);
  });

  it('does not follow redirects, stops after the timeout, and reads at most 64 KB of the answer', async () => {
    const redirect = await server((res) => {
      res.statusCode = 302;
      res.setHeader('location', 'http://169.254.169.254/');
      res.end();
    });
    const slow = await server(() => undefined);
    const big = await server((res) => {
      res.statusCode = 200;
      res.write(Buffer.alloc(1024 * 1024));
      // Never ends: only the first 64 KB are read.
    });
    try {
      const sender = new HttpWebhookSender({ allowPrivate: true, timeoutMs: 300 });
      expect(await sender.send(`http://127.0.0.1:${redirect.port}/`, {}, '{}')).toEqual({ status: 302, error: null });
      expect(redirect.hits()).toBe(1);
      const started = Date.now();
      expect((await sender.send(`http://127.0.0.1:${slow.port}/`, {}, '{}')).error).toMatch(/no answer within/);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await new HttpWebhookSender({ allowPrivate: true, timeoutMs: 5000 }).send(`http://127.0.0.1:${big.port}/`, {}, '{}')).toEqual({
        status: 200,
        error: null,
      });
    } finally {
      await Promise.all([redirect.close(), slow.close(), big.close()]);
    }
  });
});

describe('NodeDestinationGuard: the creation-time check', () => {
  it('refuses names resolving to internal addresses unless allowed, metadata ones always, and names that do not resolve', async () => {
    const strict = new NodeDestinationGuard(false);
    expect(await strict.allows('https://localhost/x')).toBe(false);
    expect(await strict.allows('https://[::ffff:127.0.0.1]/x')).toBe(false);
    expect(await new NodeDestinationGuard(false, async () => [{ address: '10.1.2.3' }]).allows('https://intranet.example/x')).toBe(false);
    expect(
      await new NodeDestinationGuard(false, async () => [{ address: '93.184.216.34' }, { address: '10.1.2.3' }]).allows(
        'https://mixed.example/x',
      ),
    ).toBe(false);
    expect(
      await new NodeDestinationGuard(false, async () => Promise.reject(new Error('ENOTFOUND'))).allows('https://nowhere.example/x'),
    ).toBe(false);
    expect(await new NodeDestinationGuard(false, async () => []).allows('https://empty.example/x')).toBe(false);
    expect(await new NodeDestinationGuard(false, async () => [{ address: '93.184.216.34' }]).allows('https://example.com/x')).toBe(true);
    const relaxed = new NodeDestinationGuard(true);
    expect(await relaxed.allows('http://127.0.0.1/x')).toBe(true);
    expect(
      await new NodeDestinationGuard(true, async () => [{ address: '93.184.216.34' }, { address: '169.254.169.254' }]).allows(
        'https://mixed.example/x',
      ),
    ).toBe(false);
  });
});
