import { Clock, Page, PageRequest } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkRepository } from '../ports/link.repository';
import { LinkListCache } from '../services/link-list-cache';
import { LinkListFilter } from './link.types';

/** A page of the owner's links and the names of the custom domains they use (for their short URLs). */
export interface LinkListAnswer {
  page: Page<Link>;
  domainNames: Map<string, string>;
}

/**
 * About what an answer holds in memory, in bytes (strings as UTF-16, plus each link's other fields and
 * objects): what the list cache's byte bound counts.
 */
export function weighLinkListAnswer(answer: LinkListAnswer): number {
  let bytes = 200;
  for (const link of answer.page.items) bytes += 400 + 2 * (link.id.length + link.slug.length + link.url.length + link.title.length + link.description.length) + (link.hasOptions ? 400 : 0);
  for (const name of answer.domainNames.values()) bytes += 100 + 2 * name.length;
  return bytes;
}

export class ListLinksUseCase {
  /**
   * `cache`: answers kept by owner and query, evicted when the owner's links change (the repository reports
   * every write through LinkListChanges, which the cache is); null: every request reads.
   */
  constructor(
    private readonly links: LinkRepository,
    private readonly domains: LinkDomains,
    private readonly clock: Clock,
    private readonly cache: LinkListCache<LinkListAnswer> | null = null,
  ) {}

  async execute(ownerId: string, query: string | undefined, page: PageRequest, filter: LinkListFilter = {}): Promise<LinkListAnswer> {
    const q = query?.trim() || undefined;
    // An answer filtered by expiry changes with the clock alone (a link expires at its time): never kept.
    if (filter.expired !== undefined || !this.cache) return this.read(ownerId, q, page, filter);
    // The search is case-insensitive (the repository compares lowercased): one entry for every spelling.
    const key = JSON.stringify([page.start, page.limit, page.after, q?.toLowerCase() ?? null, filter.sort ?? 'newest', filter.tagId ?? null, filter.favorite ?? false]);
    const cached = this.cache.get(ownerId, key);
    if (cached) return cached;
    const guard = this.cache.guardOf(ownerId);
    const answer = await this.read(ownerId, q, page, filter);
    // Shared by every request it answers from now on: nobody may change it.
    Object.freeze(answer.page.items);
    Object.freeze(answer.page);
    this.cache.set(ownerId, key, guard, Object.freeze(answer));
    return answer;
  }

  private async read(ownerId: string, q: string | undefined, page: PageRequest, filter: LinkListFilter): Promise<LinkListAnswer> {
    const { expired, ...view } = filter;
    const result = expired === undefined ? await this.links.listOfOwner(ownerId, q, page, view) : await this.links.listOfOwnerByExpiry(ownerId, expired, this.clock.now(), q, page, view);
    const domainIds = [...new Set(result.items.map((l) => l.domainId).filter((d): d is string => d !== null))];
    return { page: result, domainNames: domainIds.length ? await this.domains.namesOf(ownerId, domainIds) : new Map() };
  }
}
