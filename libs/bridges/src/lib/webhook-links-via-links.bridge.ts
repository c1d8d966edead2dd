import { LinkRepository } from '@lnk/links/domain';
import { WebhookLinks } from '@lnk/webhooks/domain';

/** A webhook's link filter names links of its owner's: the links context says which ids are. */
export class WebhookLinksViaLinks extends WebhookLinks {
  constructor(private readonly links: LinkRepository) {
    super();
  }

  async ownedOf(ownerId: string, linkIds: string[]): Promise<string[]> {
    return (await this.links.findManyOfOwner(ownerId, linkIds)).map((l) => l.id);
  }
}
