import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy on loopback, for tests of what the app does when its database goes away: `cut()` drops
 * every connection through it and closes its port (new connections are refused), `restore()` opens the
 * same port again. `stall()` makes it a database that accepts connections but never answers: new
 * connections are accepted and kept, nothing is forwarded either way on them or on the open ones;
 * `resume()` forwards again, on every connection (what was held back is delivered then).
 */
export interface TcpProxy {
  readonly port: number;
  /** Connections open through the proxy now. */
  readonly openConnections: number;
  /** Connections accepted since the proxy started. */
  readonly acceptedConnections: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, listenPort = 0): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let accepted = 0;
  let server: Server | null = null;
  let port = listenPort;
  let stalled = false;

  const forward = ([client, upstream]: [Socket, Socket]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const hold = ([client, upstream]: [Socket, Socket]) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };

  const onConnection = (client: Socket) => {
    accepted++;
    const upstream = createConnection({ host: target.host, port: target.port });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    if (stalled) hold(pair);
    else forward(pair);
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer(onConnection);
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        next.off('error', reject);
        port = (next.address() as AddressInfo).port;
        server = next;
        resolve();
      });
    });

  const shut = () =>
    new Promise<void>((resolve) => {
      const current = server;
      server = null;
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      if (!current) return resolve();
      current.close(() => resolve());
    });

  await listen();
  return {
    get port() {
      return port;
    },
    get openConnections() {
      return pairs.size;
    },
    get acceptedConnections() {
      return accepted;
    },
    cut: shut,
    restore: async () => {
      if (!server) await listen();
    },
    stall: () => {
      stalled = true;
      for (const pair of pairs) hold(pair);
    },
    resume: () => {
      stalled = false;
      for (const pair of pairs) forward(pair);
    },
    close: shut,
  };
}

/** A proxy in front of the server of a PostgreSQL URL, and that URL through the proxy. */
export async function proxyDatabase(databaseUrl: string): Promise<{ proxy: TcpProxy; url: string }> {
  const direct = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const proxied = new URL(direct.toString());
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return { proxy, url: proxied.toString() };
}
