import { Link } from '../model/link.entity';
import { Tag } from '../model/tag.entity';
import { LinkDomains } from '../ports/link-domains.port';
import { TagRepository } from '../ports/tag.repository';
import { LinkView } from '../use-cases/link.types';

/**
 * Links as their answers show them: each with its tags (in the link's order) and its domain with its
 * name. The tags and the domain names of a whole batch are read at once, one query each.
 */
export class LinkViews {
  constructor(
    private readonly tags: TagRepository,
    private readonly domains: LinkDomains,
  ) {}

  async of(ownerId: string, links: Link[]): Promise<LinkView[]> {
    const tagIds = [...new Set(links.flatMap((l) => l.tagIds))];
    const domainIds = [...new Set(links.map((l) => l.domainId).filter((d): d is string => d !== null))];
    const [tags, names] = await Promise.all([
      this.tags.findManyOfOwner(ownerId, tagIds),
      domainIds.length ? this.domains.namesOf(ownerId, domainIds) : new Map<string, string>(),
    ]);
    const tagById = new Map(tags.map((t) => [t.id, t]));
    return links.map((link) => ({
      link,
      domain: link.domainId ? { id: link.domainId, name: names.get(link.domainId) ?? '' } : null,
      tags: link.tagIds.map((id) => tagById.get(id)).filter((t): t is Tag => !!t),
    }));
  }
}
