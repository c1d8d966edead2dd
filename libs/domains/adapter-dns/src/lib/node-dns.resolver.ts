import { promises as dns } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { AddressAnswer, DnsAnswer, DnsResolver, TxtAnswer } from '@lnk/domains/domain';

type Failure = { kind: 'none' } | { kind: 'timeout' } | { kind: 'error'; message: string };

function failureOf(error: unknown): Failure {
  const code = (error as { code?: string }).code;
  if (code === 'ENODATA' || code === 'ENOTFOUND') return { kind: 'none' };
  if (code === 'ETIMEOUT') return { kind: 'timeout' };
  return { kind: 'error', message: code ?? (error as Error).message };
}

/** Asks DNS through Node's resolver: the configured servers (host:port) or the system's. */
export class NodeDnsResolver extends DnsResolver {
  private readonly resolver: dns.Resolver;

  constructor(options: { servers?: string[]; timeoutMs?: number } = {}) {
    super();
    this.resolver = new dns.Resolver({ timeout: options.timeoutMs ?? 3000, tries: 1 });
    if (options.servers?.length) this.resolver.setServers(options.servers);
  }

  async cnameOf(name: string): Promise<DnsAnswer> {
    try {
      return { kind: 'cname', targets: await this.resolver.resolveCname(name) };
    } catch (error) {
      return failureOf(error);
    }
  }

  async txtOf(name: string): Promise<TxtAnswer> {
    try {
      // A TXT record may be split into several strings of at most 255 bytes: they form one value.
      return { kind: 'txt', records: (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
    } catch (error) {
      return failureOf(error);
    }
  }

  async addressesOf(name: string, type: 'A' | 'AAAA'): Promise<AddressAnswer> {
    try {
      const addresses = type === 'A' ? await this.resolver.resolve4(name) : await this.resolver.resolve6(name);
      // One spelling per address (ipaddr.js's, as the configured addresses are written), so equal addresses compare equal.
      return { kind: 'addresses', addresses: addresses.map((a) => ipaddr.parse(a).toString()) };
    } catch (error) {
      return failureOf(error);
    }
  }
}
