import { UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';
import { LinkEventSink, recordLinkEvents } from '../ports/link-events.port';
import { LinkCreation, LinkDraft, LinkDrafts } from '../services/link-drafts';
import { LinkFields } from './link.types';
import { BulkCreated, checkCount, insertDrawingSlugs, slugKey, SLUG_REPEATED_MESSAGE, SLUG_TAKEN_MESSAGE } from '../services/link-batches';

/**
 * POST /user/link/bulk: up to 100 links, each checked by the rules of one creation (LinkDrafts), answered
 * in request order, each the link or its errors. The links that pass are written together under the quota:
 * if they do not all fit, none is written (QuotaExceededError). One unit of work: a generated slug drawn
 * again after a collision is written in the same transaction, so the batch is still all or nothing.
 */
export class BulkCreateLinksUseCase {
  private readonly drafts: LinkDrafts;

  constructor(
    private readonly creation: LinkCreation,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: LinkEventSink | null = null,
  ) {
    this.drafts = new LinkDrafts(creation);
  }

  async execute(ownerId: string, items: LinkFields[]): Promise<BulkCreated[]> {
    checkCount('links', items.length);
    const now = this.drafts.now();
    const results: BulkCreated[] = new Array(items.length);
    const drafts = new Map<number, LinkDraft>();
    for (const [i, fields] of items.entries()) {
      try {
        drafts.set(i, await this.drafts.draft(ownerId, fields, now));
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        results[i] = { errors: error.errors, reason: 'invalid' };
      }
    }
    // A chosen slug once per domain in the request: the later items that repeat it are refused.
    const used = new Set<string>();
    for (const [i, draft] of drafts) {
      if (draft.chosenSlug === null) continue;
      const key = slugKey(draft.domain?.id ?? null, draft.chosenSlug);
      if (used.has(key)) {
        results[i] = { errors: [{ name: 'slug', error: SLUG_REPEATED_MESSAGE }], reason: 'duplicate_slug' };
        drafts.delete(i);
      } else used.add(key);
    }
    // Each link's item, by the link's id (a link drawn again gets a new id: the same item).
    const itemOf = new Map<string, number>();
    const draw = (draft: LinkDraft): string => {
      // A generated slug never repeats one of the request's own.
      for (;;) {
        const slug = this.drafts.generatedSlug();
        const key = slugKey(draft.domain?.id ?? null, slug);
        if (!used.has(key)) return (used.add(key), slug);
      }
    };
    const linkOf = (i: number): Link => {
      const draft = drafts.get(i) as LinkDraft;
      const link = this.drafts.link(ownerId, draft, now, draft.chosenSlug ?? draw(draft));
      itemOf.set(link.id, i);
      return link;
    };
    const item = (link: Link) => itemOf.get(link.id) as number;
    const links = [...drafts.keys()].map(linkOf);
    if (links.length) {
      const limit = await this.creation.quota.limitFor(ownerId, 'links');
      const { written, taken } = await this.unitOfWork.run(async () => {
        const outcome = await insertDrawingSlugs(
          links,
          (link) => (drafts.get(item(link)) as LinkDraft).chosenSlug !== null,
          (batch) => this.creation.links.insertManyWithinQuota(batch, limit),
          (link) => linkOf(item(link)),
        );
        // Each link's link.created, in the batch's transaction (the webhooks' outbox).
        await recordLinkEvents(this.events, 'link.created', ownerId, outcome.written, now);
        return outcome;
      });
      for (const link of taken) results[item(link)] = { errors: [{ name: 'slug', error: SLUG_TAKEN_MESSAGE }], reason: 'duplicate_slug' };
      for (const link of written) {
        const draft = drafts.get(item(link)) as LinkDraft;
        results[item(link)] = { view: { link, domain: draft.domain, tags: draft.tags } };
        // As one creation: a "not found" cached before the link existed is evicted, in every instance.
        this.creation.changes.linkChanged(link.domainId, link.slug);
      }
    }
    return results;
  }
}
