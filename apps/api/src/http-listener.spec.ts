import type { AddressInfo } from 'node:net';
import { listenEarly, listeningUrls, PortUnavailableError } from './http-listener';

describe('listenEarly', () => {
  it(
    'holds the port from the start: a second bind of it is a PortUnavailableError saying ' +
      'the port is in use (a second start used to open the database first)',
    async () => {
      const first = await listenEarly(0, '127.0.0.1');
      const port = (first.server.address() as AddressInfo).port;
      try {
        const second = listenEarly(port, '127.0.0.1');
        await expect(second).rejects.toBeInstanceOf(PortUnavailableError);
        await expect(second).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`);
      } finally {
        first.server.close();
      }
    },
  );

  it(
    'answers 503 "starting" until the app takes over, then the app answers ' + 'on the same port (no hung request, no refused connection)',
    async () => {
      const early = await listenEarly(0, '127.0.0.1');
      const url = `http://127.0.0.1:${(early.server.address() as AddressInfo).port}/`;
      try {
        const starting = await fetch(url);
        expect([starting.status, starting.headers.get('retry-after'), await starting.json()]).toEqual([
          503,
          '1',
          { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'The service is starting' },
        ]);

        const server = early.serverFactory((_request, response) => response.end('app'), { keepAliveTimeout: 72_000 });
        // Not handed over before the app listens (Fastify calls listen once it is ready).
        expect((await fetch(url)).status).toBe(503);
        const listening = new Promise<void>((resolve) => server.once('listening', () => resolve()));
        server.listen({ port: 0 });
        await listening;
        expect(server.keepAliveTimeout).toBe(72_000);
        expect(await (await fetch(url)).text()).toBe('app');
      } finally {
        early.server.close();
        early.server.closeAllConnections();
      }
    },
  );
});

describe('listeningUrls', () => {
  const interfaces = {
    lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
    eth0: [
      { address: '192.0.2.7', family: 'IPv4', internal: false },
      { address: 'fe80::1', family: 'IPv6', internal: false },
    ],
  } as never;

  it('lists localhost and every external IPv4 address for a server on all interfaces', () => {
    expect(listeningUrls('0.0.0.0', 3000, interfaces)).toEqual(['http://localhost:3000', 'http://192.0.2.7:3000']);
  });

  it('lists the host itself otherwise, IPv6 in brackets', () => {
    expect(listeningUrls('127.0.0.1', 3000, interfaces)).toEqual(['http://127.0.0.1:3000']);
    expect(listeningUrls('::1', 3000, interfaces)).toEqual(['http://[::1]:3000']);
  });
});
