import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DestinationGuard } from '@lnk/webhooks/domain';
import { isAllowedAddress } from './internal-addresses';

export type LookupAll = (host: string) => Promise<{ address: string }[]>;

const systemLookup: LookupAll = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolves a webhook URL's host when it is created or changed and refuses it when it does not resolve or
 * any of its addresses is internal (internal-addresses.ts): the owner learns at once, with one answer for
 * both (an "internal" answer for a name that resolves and a "does not resolve" for one that does not would
 * map the internal DNS). The sender checks again at connect time, since the name may resolve elsewhere
 * later (DNS rebinding).
 */
export class NodeDestinationGuard extends DestinationGuard {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly lookup: LookupAll = systemLookup,
  ) {
    super();
  }

  async allows(url: string): Promise<boolean> {
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = (await this.lookup(host)).map((a) => a.address);
      } catch {
        return false;
      }
    }
    return addresses.length > 0 && addresses.every((address) => isAllowedAddress(address, this.allowPrivate));
  }
}
