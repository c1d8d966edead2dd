import { found } from '@lnk/shared/kernel';
import { Tag } from '../model/tag.entity';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkRepository } from '../ports/link.repository';
import { TagRepository } from '../ports/tag.repository';
import { LinkView } from './link.types';

export class GetLinkUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly tags: TagRepository,
    private readonly domains: LinkDomains,
  ) {}

  async execute(ownerId: string, id: string): Promise<LinkView> {
    const link = found(await this.links.findOfOwner(ownerId, id), 'Link');
    const [tags, names] = await Promise.all([this.tags.findManyOfOwner(ownerId, link.tagIds), link.domainId ? this.domains.namesOf(ownerId, [link.domainId]) : new Map<string, string>()]);
    const domain = link.domainId ? { id: link.domainId, name: names.get(link.domainId) ?? '' } : null;
    return { link, domain, tags: link.tagIds.map((tid) => tags.find((t) => t.id === tid)).filter((t): t is Tag => !!t) };
  }
}
