import { Resolver } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import type { LookupAll } from './node-destination.guard';

/**
 * Name resolution through the DNS servers the operator names (DNS_SERVERS, host:port), as domain
 * verification uses: the A and AAAA records of a name, both asked. Used by the destination check at
 * creation and by the sender at connect time, so the two agree on what a name points at.
 */
export function serversLookup(servers: string[], timeoutMs = 3000): { all: LookupAll; connect: LookupFunction } {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers(servers);
  const all: LookupAll = async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])].map((address) => ({
      address,
    }));
    if (!addresses.length) throw Object.assign(new Error(`${host} does not resolve`), { code: 'ENOTFOUND' });
    return addresses;
  };
  const connect = ((
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (error: Error | null, address?: unknown, family?: number) => void,
  ) => {
    all(hostname).then(
      (found) => {
        const usable =
          options.family === 4 || options.family === 6 ? found.filter((a) => (a.address.includes(':') ? 6 : 4) === options.family) : found;
        if (!usable.length) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }));
        const family = (address: string) => (address.includes(':') ? 6 : 4);
        if (options.all)
          callback(
            null,
            usable.map((a) => ({ address: a.address, family: family(a.address) })),
          );
        else callback(null, usable[0].address, family(usable[0].address));
      },
      (error: Error) => callback(error),
    );
  }) as LookupFunction;
  return { all, connect };
}
