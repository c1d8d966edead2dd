import { StatsLinks } from '@lnk/analytics/domain';
import { LinkRepository, TagRepository } from '@lnk/links/domain';

/** Statistics filtered by link or tag ask the links context whose they are and which links a tag has. */
export class StatsLinksViaLinks extends StatsLinks {
  constructor(
    private readonly links: LinkRepository,
    private readonly tags: TagRepository,
  ) {
    super();
  }

  async isOwnersLink(ownerId: string, linkId: string): Promise<boolean> {
    return (await this.links.findOfOwner(ownerId, linkId)) !== null;
  }

  async linksTagged(ownerId: string, tagId: string): Promise<string[] | null> {
    if (!(await this.tags.findOfOwner(ownerId, tagId))) return null;
    return this.links.idsTaggedWith(ownerId, tagId);
  }
}
