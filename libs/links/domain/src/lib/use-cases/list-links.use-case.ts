import { Clock, Page, PageRequest } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkRepository } from '../ports/link.repository';
import { LinkListFilter } from './link.types';

export class ListLinksUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly domains: LinkDomains,
    private readonly clock: Clock,
  ) {}

  async execute(ownerId: string, query: string | undefined, page: PageRequest, filter: LinkListFilter = {}): Promise<{ page: Page<Link>; domainNames: Map<string, string> }> {
    const q = query?.trim() || undefined;
    const result = filter.expired === undefined ? await this.links.listOfOwner(ownerId, q, page) : await this.links.listOfOwnerByExpiry(ownerId, filter.expired, this.clock.now(), q, page);
    const domainIds = [...new Set(result.items.map((l) => l.domainId).filter((d): d is string => d !== null))];
    return { page: result, domainNames: domainIds.length ? await this.domains.namesOf(ownerId, domainIds) : new Map() };
  }
}
