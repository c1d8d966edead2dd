import { Clock } from '@lnk/shared/kernel';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkListAnswer, LinkListQuery, LinkLists } from '../ports/link-lists.port';
import { LinkRepository } from '../ports/link.repository';

/** Lists read from the link repository, with the names of the custom domains their links use. */
export class RepositoryLinkLists extends LinkLists {
  constructor(
    private readonly links: LinkRepository,
    private readonly domains: LinkDomains,
    private readonly clock: Clock,
  ) {
    super();
  }

  async listOf(ownerId: string, { q, page, filter }: LinkListQuery): Promise<LinkListAnswer> {
    const { expired, ...view } = filter;
    const result =
      expired === undefined
        ? await this.links.listOfOwner(ownerId, q, page, view)
        : await this.links.listOfOwnerByExpiry(ownerId, expired, this.clock.now(), q, page, view);
    const domainIds = [...new Set(result.items.map((l) => l.domainId).filter((d): d is string => d !== null))];
    return { page: result, domainNames: domainIds.length ? await this.domains.namesOf(ownerId, domainIds) : new Map() };
  }
}
