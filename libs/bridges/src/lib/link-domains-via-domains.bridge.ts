import { LinkDomain, LinkDomains } from '@lnk/links/domain';
import { DomainRepository } from '@lnk/domains/domain';

/** Links ask the domains context which of the owner's domains are verified. */
export class LinkDomainsViaDomains extends LinkDomains {
  constructor(private readonly domains: DomainRepository) {
    super();
  }

  async verifiedDomainOf(ownerId: string, domainId: string): Promise<LinkDomain | null> {
    const domain = await this.domains.findVerifiedOfOwner(ownerId, domainId);
    return domain ? { id: domain.id, name: domain.name } : null;
  }

  async verifiedDomainByName(name: string): Promise<LinkDomain | null> {
    const domain = await this.domains.findVerifiedByName(name);
    return domain ? { id: domain.id, name: domain.name } : null;
  }

  async namesOf(ownerId: string, domainIds: string[]): Promise<Map<string, string>> {
    const found = await Promise.all(domainIds.map((id) => this.domains.findOfOwner(ownerId, id)));
    return new Map(found.filter((d) => d !== null).map((d) => [d.id, d.name]));
  }
}
