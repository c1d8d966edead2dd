import { FieldError, QuotaExceededError, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';
import { checkTagName, Tag } from '../model/tag.entity';
import { LinkEventSink, recordLinkEvents } from '../ports/link-events.port';
import { LinkCreation, LinkDraft, LinkDrafts } from '../services/link-drafts';
import { tagKey, TagsByName } from '../services/tags-by-name';
import { insertDrawingSlugs, MAX_TAGS_PER_LINK, SLUG_TAKEN_MESSAGE } from '../services/link-batches';

/** One line of an import, its columns already mapped to a link's fields (the CSV is the HTTP layer's). */
export interface ImportLine {
  /** Its line number in the file, for the report. */
  line: number;
  url: string;
  slug?: string;
  title?: string;
  description?: string;
  /** Tag names. */
  tags: string[];
}

export type ImportSkipReason = 'invalid' | 'duplicate_slug' | 'quota';

export interface ImportSkip {
  line: number;
  reason: ImportSkipReason;
  errors: FieldError[];
}

export interface ImportReport {
  created: number;
  skipped: ImportSkip[];
}

/** Links per insert statement: 10,000 lines are 10 statements, not 10,000 requests. */
export const IMPORT_BATCH = 1000;

/**
 * POST /user/link/import: every line checked by the rules of one creation (LinkDrafts), on the service's
 * short domain. A bad line, a slug repeated in the file or taken already, and the lines past what the quota
 * leaves are reported by line number and skipped; the rest is written in batches of IMPORT_BATCH, each
 * all or nothing under the quota (`batchSize`: tests make it small). Tags are named: the caller's tag of that name (any case), else a new one.
 */
export class ImportLinksUseCase {
  private readonly drafts: LinkDrafts;
  private readonly named: TagsByName;

  constructor(
    private readonly creation: LinkCreation,
    private readonly unitOfWork: UnitOfWork,
    private readonly batchSize = IMPORT_BATCH,
    private readonly events: LinkEventSink | null = null,
  ) {
    this.drafts = LinkDrafts.of(creation);
    this.named = new TagsByName(creation.tags, creation.quota, creation.ids, creation.clock);
  }

  async execute(ownerId: string, lines: ImportLine[]): Promise<ImportReport> {
    const now = this.drafts.now();
    const skipped: ImportSkip[] = [];
    const skip = (line: ImportLine, reason: ImportSkipReason, errors: FieldError[]) => skipped.push({ line: line.line, reason, errors });

    // Each line by the rules of one creation; a chosen slug once in the file.
    let valid: { line: ImportLine; draft: Omit<LinkDraft, 'tags'> }[] = [];
    const slugLines = new Map<string, number>();
    for (const line of lines) {
      try {
        const { password: _none, ...checked } = this.drafts.checkFields({ url: line.url, slug: line.slug || undefined, title: line.title, description: line.description }, now);
        const errors: FieldError[] = [];
        if (line.tags.length > MAX_TAGS_PER_LINK) errors.push({ name: 'tags', error: `a link carries at most ${MAX_TAGS_PER_LINK} tags` });
        for (const name of line.tags) {
          try {
            checkTagName(name);
          } catch {
            errors.push({ name: 'tags', error: `a tag name is 1 to 64 characters: "${name.slice(0, 80)}"` });
          }
        }
        if (errors.length) throw new ValidationError(errors);
        if (checked.chosenSlug !== null) {
          const first = slugLines.get(checked.chosenSlug);
          if (first !== undefined) {
            skip(line, 'duplicate_slug', [{ name: 'slug', error: `slug is already used by line ${first} of this file` }]);
            continue;
          }
          slugLines.set(checked.chosenSlug, line.line);
        }
        valid.push({ line, draft: { ...checked, passwordHash: null, domain: null } });
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        skip(line, 'invalid', error.errors);
      }
    }

    // The lines past what the quota leaves now are skipped before anything is made for them.
    const limit = await this.creation.quota.limitFor(ownerId, 'links');
    const room = Math.max(0, limit - (await this.creation.links.countOfOwner(ownerId)));
    const overQuota = (line: ImportLine) => skip(line, 'quota', [{ name: 'links', error: `the links quota of your plan is used up (${limit})` }]);
    for (const { line } of valid.slice(room)) overQuota(line);
    valid = valid.slice(0, room);

    const { tags, refused } = await this.named.resolve(ownerId, valid.flatMap((v) => v.line.tags), true);
    const drafts: { line: ImportLine; draft: LinkDraft }[] = [];
    for (const { line, draft } of valid) {
      const cannot = line.tags.filter((name) => refused.has(tagKey(name)));
      if (cannot.length) skip(line, 'quota', [{ name: 'tags', error: `the tags quota of your plan is used up: cannot make ${cannot.join(', ')}` }]);
      else drafts.push({ line, draft: { ...draft, tags: uniqueTags(line.tags.map((name) => tags.get(tagKey(name)) as Tag)) } });
    }

    let created = 0;
    for (let start = 0, retries = 0; start < drafts.length; ) {
      const chunk = drafts.slice(start, start + this.batchSize);
      try {
        created += await this.insert(ownerId, chunk, limit, now, skip);
        start += chunk.length;
      } catch (error) {
        if (!(error instanceof QuotaExceededError) || ++retries > 3) throw error;
        // Links made meanwhile by other requests took some of the room: what is left of it goes to the first lines.
        const left = Math.max(0, limit - (await this.creation.links.countOfOwner(ownerId)));
        if (left < chunk.length) {
          for (const { line } of drafts.slice(start + left)) overQuota(line);
          drafts.length = start + left;
        }
      }
    }
    skipped.sort((a, b) => a.line - b.line);
    return { created, skipped };
  }

  /** One batch in one unit of work (all or nothing under the quota); answers how many links it wrote. */
  private async insert(ownerId: string, chunk: { line: ImportLine; draft: LinkDraft }[], limit: number, now: Date, skip: (line: ImportLine, reason: ImportSkipReason, errors: FieldError[]) => void): Promise<number> {
    if (!chunk.length) return 0;
    const itemOf = new Map<string, { line: ImportLine; draft: LinkDraft }>();
    const linkOf = (item: { line: ImportLine; draft: LinkDraft }, slug?: string): Link => {
      const link = this.drafts.link(ownerId, item.draft, now, slug ?? item.draft.chosenSlug ?? this.drafts.generatedSlug());
      itemOf.set(link.id, item);
      return link;
    };
    const { written, taken } = await this.unitOfWork.run(async () => {
      const outcome = await insertDrawingSlugs(
        chunk.map((item) => linkOf(item)),
        (link) => itemOf.get(link.id)?.draft.chosenSlug !== null,
        (batch) => this.creation.links.insertManyWithinQuota(batch, limit),
        (link) => linkOf(itemOf.get(link.id) as { line: ImportLine; draft: LinkDraft }, this.drafts.generatedSlug()),
      );
      // Each imported link's link.created, in its batch's transaction (the webhooks' outbox).
      await recordLinkEvents(this.events, 'link.created', ownerId, outcome.written, now);
      return outcome;
    });
    for (const link of taken) skip((itemOf.get(link.id) as { line: ImportLine }).line, 'duplicate_slug', [{ name: 'slug', error: SLUG_TAKEN_MESSAGE }]);
    // As one creation: a "not found" cached before a link existed is evicted, in every instance.
    for (const link of written) this.creation.changes.linkChanged(link.domainId, link.slug);
    return written.length;
  }
}

const uniqueTags = (tags: Tag[]) => [...new Map(tags.map((t) => [t.id, t])).values()];
