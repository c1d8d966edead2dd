import { DomainUsage } from '@lnk/domains/domain';
import { LinkRepository } from '@lnk/links/domain';

/** Domains ask the links context whether links still use a domain. */
export class DomainUsageViaLinks extends DomainUsage {
  constructor(private readonly links: LinkRepository) {
    super();
  }

  linksUsing(ownerId: string, domainId: string): Promise<number> {
    return this.links.countUsingDomain(ownerId, domainId);
  }
}
