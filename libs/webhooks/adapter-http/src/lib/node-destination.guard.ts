import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DestinationGuard } from '@lnk/webhooks/domain';
import { internalAddressProblem } from './internal-addresses';

export type LookupAll = (host: string) => Promise<{ address: string }[]>;

const systemLookup: LookupAll = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolves a webhook URL's host when it is created or changed and refuses it when any of its addresses is
 * internal (internal-addresses.ts): the owner learns at once. The sender checks again at connect time,
 * since the name may resolve elsewhere later (DNS rebinding).
 */
export class NodeDestinationGuard extends DestinationGuard {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly lookup: LookupAll = systemLookup,
  ) {
    super();
  }

  async problemWith(url: string): Promise<string | null> {
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = (await this.lookup(host)).map((a) => a.address);
      } catch {
        return `the host ${host} does not resolve`;
      }
    }
    if (addresses.length === 0) return `the host ${host} does not resolve`;
    for (const address of addresses) {
      const problem = internalAddressProblem(address, this.allowPrivate);
      if (problem) return `url points at an internal address: ${problem}`;
    }
    return null;
  }
}
