import { ValidationError } from '@lnk/shared/kernel';
import { Tag } from '../model/tag.entity';
import { LinkDomain, LinkDomains } from '../ports/link-domains.port';
import { TagRepository } from '../ports/tag.repository';

/** Shared checks of create and update: domain, tags. */
export class LinkRules {
  constructor(
    private readonly domains: LinkDomains,
    private readonly tags: TagRepository,
  ) {}

  async domain(ownerId: string, domainId: string | null | undefined): Promise<LinkDomain | null> {
    if (!domainId) return null;
    const domain = await this.domains.verifiedDomainOf(ownerId, domainId);
    if (!domain) throw ValidationError.field('domainId', 'domainId must be a verified domain of yours');
    return domain;
  }

  async tagsOf(ownerId: string, ids: string[]): Promise<Tag[]> {
    const unique = [...new Set(ids)];
    if (unique.length > 50) throw ValidationError.field('tags', 'a link carries at most 50 tags');
    const found = await this.tags.findManyOfOwner(ownerId, unique);
    const missing = unique.filter((id) => !found.some((t) => t.id === id));
    if (missing.length) throw ValidationError.field('tags', `unknown tag: ${missing.join(', ')}`);
    return unique.map((id) => found.find((t) => t.id === id) as Tag);
  }
}
