import type { IncomingMessage } from 'node:http';
import { clientAddressOf, parseTrustProxy } from './client-address';

describe('parseTrustProxy (TRUST_PROXY)', () => {
  it('reads true, false, a hop count, and proxy addresses, CIDRs and named ranges', () => {
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('0')).toBe(0);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(parseTrustProxy('fd00::/8,::1/128,loopback,uniquelocal')).toEqual(['fd00::/8', '::1/128', 'loopback', 'uniquelocal']);
  });

  // `on` and `yes` were read as a list of one proxy named "on", which matched no address: the operator meant
  // to trust the proxy and trusted nothing; the API's Fastify threw a stack trace at start-up instead.
  it.each(['on', 'yes', 'TRUE', '-1', '1.2.3.4/99', '::1/129', '10.0.0.0/8/8', '10.0.0.0/x', '999.1.1.1', '33', ',', '10.0.0.1, on'])(
    'refuses %p, naming the accepted forms',
    (raw) => {
      expect(() => parseTrustProxy(raw)).toThrow(
        new RegExp(
          '^must be true \\(believe any X-Forwarded-For, which a client can write itself\\), false, ' +
            'a number of proxy hops from 0 to 32, or comma-separated proxy addresses and CIDRs',
        ),
      );
    },
  );

  it('names the entries it refuses', () => {
    expect(() => parseTrustProxy('10.0.0.1, on, 1.2.3.4/99')).toThrow(/\(got "on", "1\.2\.3\.4\/99"\)$/);
  });

  // What each accepted form believes, as the redirect app reads the client address with it.
  it('believes as many hops as it is told, and only the listed proxies', () => {
    const request = (socket: string, forwarded: string) =>
      ({ socket: { remoteAddress: socket }, headers: { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;
    const chain = request('10.0.0.2', '203.0.113.9, 198.51.100.1, 10.0.0.1');
    expect(clientAddressOf(parseTrustProxy('false'))(chain)).toBe('10.0.0.2');
    expect(clientAddressOf(parseTrustProxy('1'))(chain)).toBe('10.0.0.1');
    expect(clientAddressOf(parseTrustProxy('2'))(chain)).toBe('198.51.100.1');
    expect(clientAddressOf(parseTrustProxy('10.0.0.0/8'))(chain)).toBe('198.51.100.1');
    expect(clientAddressOf(parseTrustProxy('true'))(chain)).toBe('203.0.113.9');
  });
});
