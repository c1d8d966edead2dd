import { Page, PageRequest } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkRepository } from '../ports/link.repository';

export class ListLinksUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly domains: LinkDomains,
  ) {}

  async execute(ownerId: string, query: string | undefined, page: PageRequest): Promise<{ page: Page<Link>; domainNames: Map<string, string> }> {
    const result = await this.links.listOfOwner(ownerId, query?.trim() || undefined, page);
    const domainIds = [...new Set(result.items.map((l) => l.domainId).filter((d): d is string => d !== null))];
    return { page: result, domainNames: domainIds.length ? await this.domains.namesOf(ownerId, domainIds) : new Map() };
  }
}
