import { ValidationError } from '@lnk/shared/kernel';
import { LinkEventSink, withLinkEvent } from '../ports/link-events.port';
import { SLUG_ATTEMPTS } from '../services/link-batches';
import { LinkCreation, LinkDrafts } from '../services/link-drafts';
import { LinkFields, LinkView } from './link.types';

export class CreateLinkUseCase {
  private readonly drafts: LinkDrafts;

  constructor(
    private readonly creation: LinkCreation,
    private readonly events: LinkEventSink | null = null,
  ) {
    this.drafts = new LinkDrafts(creation);
  }

  async execute(ownerId: string, fields: LinkFields): Promise<LinkView> {
    const now = this.drafts.now();
    const draft = await this.drafts.draft(ownerId, fields, now);
    const limit = await this.creation.quota.limitFor(ownerId, 'links');

    for (let attempt = 1; ; attempt++) {
      const link = this.drafts.link(ownerId, draft, now);
      try {
        // The event first: the insert still takes the owner's usage row last (see the links repository).
        await withLinkEvent(this.events, 'link.created', ownerId, async (record) => {
          await record(link, now);
          await this.creation.links.insertWithinQuota(link, limit);
        });
        // The short URL answers at once, in every instance: a "not found" cached before it existed is evicted.
        this.creation.changes.linkChanged(link.domainId, link.slug);
        return { link, domain: draft.domain, tags: draft.tags };
      } catch (error) {
        // A generated slug that collided is drawn again; a chosen one is the caller's to change.
        const collided = error instanceof ValidationError && error.errors.some((e) => e.name === 'slug');
        if (!collided || draft.chosenSlug !== null || attempt >= SLUG_ATTEMPTS) throw error;
      }
    }
  }
}
