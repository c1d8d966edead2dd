import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy on loopback, for tests of what the app does when its database goes away: `cut()` drops
 * every connection through it and closes its port (new connections are refused), `restore()` opens the
 * same port again.
 */
export interface TcpProxy {
  readonly port: number;
  /** Connections open through the proxy now. */
  readonly openConnections: number;
  /** Connections accepted since the proxy started. */
  readonly acceptedConnections: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, listenPort = 0): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let accepted = 0;
  let server: Server | null = null;
  let port = listenPort;

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
    client.pipe(upstream);
    upstream.pipe(client);
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
    close: shut,
  };
}
