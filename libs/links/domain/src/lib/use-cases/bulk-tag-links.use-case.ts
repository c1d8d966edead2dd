import { Clock, FieldError, IdGenerator, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { checkTagName } from '../model/tag.entity';
import { LinkEventSink, recordLinkEvents, withLinkEvent } from '../ports/link-events.port';
import { LinkRepository } from '../ports/link.repository';
import { TagRepository } from '../ports/tag.repository';
import { tagKey, TagsByName } from '../services/tags-by-name';
import { BulkOutcome, checkCount, MAX_TAGS_PER_LINK } from '../services/link-batches';

/** What tagging links in bulk needs: the links and tags, the quota (new tags count), and the events it records. */
export interface BulkTagging {
  links: LinkRepository;
  tags: TagRepository;
  quota: QuotaPolicy;
  ids: IdGenerator;
  clock: Clock;
  events?: LinkEventSink | null;
}

/**
 * POST /user/link/bulk/tags: tags put on (`add`) and taken off (`remove`) up to 100 of the caller's links,
 * named by their names as an import names them: a name is one of the caller's tags whatever its case; an
 * added name that is none is made (under the tag quota), a removed one that is none is nothing to remove.
 */
export class BulkTagLinksUseCase {
  private readonly named: TagsByName;

  private readonly events: LinkEventSink | null;

  constructor(private readonly deps: BulkTagging) {
    this.events = deps.events ?? null;
    this.named = new TagsByName(deps.tags, deps.quota, deps.ids, deps.clock);
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
    for (const [field, names] of [
      ['add', add],
      ['remove', remove],
    ] as const) {
      names.forEach((name, i) => {
        try {
          checkTagName(name);
        } catch {
          errors.push({ name: `${field}.${i}`, error: 'a tag name is 1 to 64 characters' });
        }
      });
    }
    const both = add.filter((a) => remove.some((r) => tagKey(r) === tagKey(a)));
    if (both.length) errors.push({ name: 'remove', error: `a tag is either added or removed: ${both.join(', ')}` });
    if (errors.length) throw new ValidationError(errors);

    const added = await this.named.resolve(ownerId, add, true);
    if (added.refused.size)
      throw ValidationError.field('add', `the tag quota of your plan is used up: cannot make ${[...added.refused].join(', ')}`);
    const removed = await this.named.resolve(ownerId, remove, false);
    const retagged = await withLinkEvent(this.events, 'link.updated', ownerId, async () => {
      const ids = await this.deps.links.retagManyOfOwner(
        ownerId,
        [...new Set(change.ids)],
        [...added.tags.values()].map((t) => t.id),
        [...removed.tags.values()].map((t) => t.id),
        MAX_TAGS_PER_LINK,
      );
      if (this.events?.events.wants('link.updated', ownerId)) {
        // Each retagged link's link.updated, as it now is, in the retag's transaction.
        await recordLinkEvents(
          this.events,
          'link.updated',
          ownerId,
          await this.deps.links.findManyOfOwner(ownerId, ids),
          this.deps.clock.now(),
        );
      }
      return ids;
    });
    const found = new Set(retagged);
    return change.ids.map((id) => ({ id, found: found.has(id) }));
  }
}
