import { ValidationError } from '@lnk/shared/kernel';
import { checkWebhookLinkIds, checkWebhookUrl } from '../model/webhook.entity';
import { DESTINATION_REFUSED, DestinationGuard, WebhookLinks } from '../ports/outbound.ports';

/** The checks creation and update share: a destination that is not internal, links that are the caller's. */
export class WebhookRules {
  constructor(
    private readonly guard: DestinationGuard,
    private readonly links: WebhookLinks,
    private readonly allowPrivate: boolean,
  ) {}

  async url(value: unknown): Promise<string> {
    const url = checkWebhookUrl(value, this.allowPrivate);
    if (!(await this.guard.allows(url))) throw ValidationError.field('url', DESTINATION_REFUSED);
    return url;
  }

  /** Null or absent: every link. Another account's link is refused as if it did not exist. */
  async linkIds(ownerId: string, value: unknown): Promise<string[] | null> {
    const ids = checkWebhookLinkIds(value);
    if (ids === null) return null;
    const owned = new Set(await this.links.ownedOf(ownerId, ids));
    const unknown = ids.filter((id) => !owned.has(id));
    if (unknown.length) throw ValidationError.field('linkIds', `no such link: ${unknown.join(', ')}`);
    return ids.sort();
  }
}
