import { Clock, FieldError, IdGenerator, QuotaPolicy, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';
import { checkTagName } from '../model/tag.entity';
import { LinkChanges } from '../ports/link-changes.port';
import { LinkEventSink, recordLinkEvents, withLinkEvent } from '../ports/link-events.port';
import { LinkRepository } from '../ports/link.repository';
import { TagRepository } from '../ports/tag.repository';
import { LinkCreation, LinkDraft, LinkDrafts } from '../services/link-drafts';
import { tagKey, TagsByName } from '../services/tags-by-name';
import { LinkFields, LinkView } from './link.types';

/** At most this many links, ids or lines of one bulk request (issue 18). */
export const MAX_BULK_ITEMS = 100;
/** As a link's own tags (LinkRules). */
export const MAX_TAGS_PER_LINK = 50;
const SLUG_ATTEMPTS = 5;

export const SLUG_TAKEN_MESSAGE = 'slug is already taken on this domain';
export const SLUG_REPEATED_MESSAGE = 'slug is already used by an earlier link of this request';

/** One item of a bulk answer: the created link, or why it was not. */
export type BulkCreated = { view: LinkView } | { errors: FieldError[] };

const slugKey = (domainId: string | null, slug: string) => `${domainId ?? ''}/${slug}`;

function checkCount(name: string, n: number): void {
  if (n < 1 || n > MAX_BULK_ITEMS) throw ValidationError.field(name, `${name} takes 1 to ${MAX_BULK_ITEMS} items`);
}

/**
 * Links written together, as creation does it: a chosen slug that is taken is the caller's to change,
 * a generated one is drawn again (`redraw`: the link with a new id and slug) and written in a further
 * batch. `insert` writes a batch and answers the ids whose slug was taken (see
 * LinkRepository.insertManyWithinQuota). Answers the links written and those refused their chosen slug.
 */
export async function insertDrawingSlugs(
  links: Link[],
  chosen: (link: Link) => boolean,
  insert: (batch: Link[]) => Promise<{ taken: string[] }>,
  redraw: (link: Link) => Link,
): Promise<{ written: Link[]; taken: Link[] }> {
  const written: Link[] = [];
  const taken: Link[] = [];
  let pending = links;
  for (let attempt = 1; pending.length; attempt++) {
    const refused = new Set((await insert(pending)).taken);
    const again: Link[] = [];
    for (const link of pending) {
      if (!refused.has(link.id)) written.push(link);
      else if (chosen(link) || attempt >= SLUG_ATTEMPTS) taken.push(link);
      else again.push(redraw(link));
    }
    pending = again;
  }
  return { written, taken };
}

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
    this.drafts = LinkDrafts.of(creation);
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
        results[i] = { errors: error.errors };
      }
    }
    // A chosen slug once per domain in the request: the later items that repeat it are refused.
    const used = new Set<string>();
    for (const [i, draft] of drafts) {
      if (draft.chosenSlug === null) continue;
      const key = slugKey(draft.domain?.id ?? null, draft.chosenSlug);
      if (used.has(key)) {
        results[i] = { errors: [{ name: 'slug', error: SLUG_REPEATED_MESSAGE }] };
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
        if (!used.has(key)) return used.add(key), slug;
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
        const outcome = await insertDrawingSlugs(links, (link) => (drafts.get(item(link)) as LinkDraft).chosenSlug !== null, (batch) => this.creation.links.insertManyWithinQuota(batch, limit), (link) => linkOf(item(link)));
        // Each link's link.created, in the batch's transaction (the webhooks' outbox).
        await recordLinkEvents(this.events, 'link.created', ownerId, outcome.written, now);
        return outcome;
      });
      for (const link of taken) results[item(link)] = { errors: [{ name: 'slug', error: SLUG_TAKEN_MESSAGE }] };
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

/** One id of a bulk delete or retag: whether it named a link of the caller's (the others are not touched). */
export interface BulkOutcome {
  id: string;
  found: boolean;
}

/** DELETE /user/link/bulk: the caller's links among up to 100 ids, in one statement; each deleted link's short URL stops answering at once. */
export class BulkDeleteLinksUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly changes: LinkChanges,
    private readonly clock: Clock,
    private readonly events: LinkEventSink | null = null,
  ) {}

  async execute(ownerId: string, ids: string[]): Promise<BulkOutcome[]> {
    checkCount('ids', ids.length);
    const unique = [...new Set(ids)];
    const deleted = await withLinkEvent(this.events, 'link.deleted', ownerId, async () => {
      if (!this.events?.events.wants('link.deleted', ownerId)) return this.links.deleteManyOfOwner(ownerId, unique);
      // A receiver is told what each deleted link was: read in the deletion's transaction, before it.
      const before = await this.links.findManyOfOwner(ownerId, unique);
      const gone = await this.links.deleteManyOfOwner(ownerId, unique);
      const goneIds = new Set(gone.map((l) => l.id));
      await recordLinkEvents(this.events, 'link.deleted', ownerId, before.filter((l) => goneIds.has(l.id)), this.clock.now());
      return gone;
    });
    // As one deletion: every instance's redirect cache forgets each short URL.
    for (const link of deleted) this.changes.linkChanged(link.domainId, link.slug);
    const gone = new Set(deleted.map((l) => l.id));
    return ids.map((id) => ({ id, found: gone.has(id) }));
  }
}

/**
 * POST /user/link/bulk/tags: tags put on (`add`) and taken off (`remove`) up to 100 of the caller's links,
 * named by their names as an import names them: a name is one of the caller's tags whatever its case; an
 * added name that is none is made (under the tag quota), a removed one that is none is nothing to remove.
 */
export class BulkTagLinksUseCase {
  private readonly named: TagsByName;

  constructor(
    private readonly links: LinkRepository,
    tags: TagRepository,
    quota: QuotaPolicy,
    ids: IdGenerator,
    private readonly clock: Clock,
    private readonly events: LinkEventSink | null = null,
  ) {
    this.named = new TagsByName(tags, quota, ids, clock);
  }

  async execute(ownerId: string, change: { ids: string[]; add?: string[]; remove?: string[] }): Promise<BulkOutcome[]> {
    const add = change.add ?? [];
    const remove = change.remove ?? [];
    const errors: FieldError[] = [];
    try {
      checkCount('ids', change.ids.length);
    } catch (error) {
      errors.push(...(error as ValidationError).errors);
    }
    if (!add.length && !remove.length) errors.push({ name: 'add', error: 'add or remove must name at least one tag' });
    if (add.length > MAX_TAGS_PER_LINK) errors.push({ name: 'add', error: `a link carries at most ${MAX_TAGS_PER_LINK} tags` });
    for (const [field, names] of [['add', add], ['remove', remove]] as const) {
      names.forEach((name, i) => {
        try {
          checkTagName(name);
        } catch {
          errors.push({ name: `${field}[${i}]`, error: 'a tag name is 1 to 64 characters' });
        }
      });
    }
    const both = add.filter((a) => remove.some((r) => tagKey(r) === tagKey(a)));
    if (both.length) errors.push({ name: 'remove', error: `a tag is either added or removed: ${both.join(', ')}` });
    if (errors.length) throw new ValidationError(errors);

    const added = await this.named.resolve(ownerId, add, true);
    if (added.refused.size) throw ValidationError.field('add', `the tag quota of your plan is used up: cannot make ${[...added.refused].join(', ')}`);
    const removed = await this.named.resolve(ownerId, remove, false);
    const retagged = await withLinkEvent(this.events, 'link.updated', ownerId, async () => {
      const ids = await this.links.retagManyOfOwner(ownerId, [...new Set(change.ids)], [...added.tags.values()].map((t) => t.id), [...removed.tags.values()].map((t) => t.id), MAX_TAGS_PER_LINK);
      if (this.events?.events.wants('link.updated', ownerId)) {
        // Each retagged link's link.updated, as it now is, in the retag's transaction.
        await recordLinkEvents(this.events, 'link.updated', ownerId, await this.links.findManyOfOwner(ownerId, ids), this.clock.now());
      }
      return ids;
    });
    const found = new Set(retagged);
    return change.ids.map((id) => ({ id, found: found.has(id) }));
  }
}
