import { FieldError, QuotaExceededError, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { yieldToEventLoop } from '../services/event-loop';
import { Link } from '../model/link.entity';
import { checkTagName, Tag } from '../model/tag.entity';
import { LinkEventSink, recordLinkEvents } from '../ports/link-events.port';
import { LinkCreation, LinkDraft, LinkDrafts } from '../services/link-drafts';
import { tagKey, TagsByName } from '../services/tags-by-name';
import { insertDrawingSlugs, MAX_TAGS_PER_LINK, SkipReason, SLUG_TAKEN_MESSAGE } from '../services/link-batches';

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

export type ImportSkipReason = SkipReason;

export interface ImportSkip {
  line: number;
  reason: ImportSkipReason;
  errors: FieldError[];
}

export interface ImportReport {
  created: number;
  /** The first IMPORT_LISTED_SKIPS skipped lines, by line number. */
  skipped: ImportSkip[];
  /** Every skipped line, listed or not. */
  skippedTotal: number;
  skippedByReason: Record<ImportSkipReason, number>;
}

/** Links per insert statement: 10,000 lines are 10 statements, not 10,000 requests. */
export const IMPORT_BATCH = 1000;
/** Skipped lines the report lists (the others are counted): a file of bad lines is not answered line by line. */
export const IMPORT_LISTED_SKIPS = 100;
/** Lines checked between two turns of the event loop: a long file does not hold the process. */
export const IMPORT_SLICE = 500;

/** The skipped lines of an import: counted by reason, the first IMPORT_LISTED_SKIPS by line number kept. */
class SkippedLines {
  private kept: ImportSkip[] = [];
  total = 0;
  readonly byReason: Record<ImportSkipReason, number> = { invalid: 0, duplicate_slug: 0, quota: 0 };

  add(line: number, reason: ImportSkipReason, errors: FieldError[]): void {
    this.total++;
    this.byReason[reason]++;
    this.kept.push({ line, reason, errors });
    // Lines are skipped out of order (quota and taken slugs are known only when writing): trimmed now and then, not per line.
    if (this.kept.length >= 2 * IMPORT_LISTED_SKIPS) this.kept = this.listed();
  }

  listed(): ImportSkip[] {
    return this.kept.sort((a, b) => a.line - b.line).slice(0, IMPORT_LISTED_SKIPS);
  }
}

/**
 * POST /user/link/import: every line checked by the rules of one creation (LinkDrafts), on the service's
 * short domain. A bad line and a slug repeated in the file or taken already are skipped; once the lines
 * that passed fill what the quota leaves, the remaining lines are skipped as quota without being checked.
 * The rest is written in batches of IMPORT_BATCH, each all or nothing under the quota (`batchSize`: tests
 * make it small). Tags are named: the caller's tag of that name (any case), else a new one. Lines are
 * read as they come (an async iterable: the file's reader may still be parsing) and checked in slices of
 * IMPORT_SLICE with a turn of the event loop between two. The report counts every skipped line and lists
 * the first IMPORT_LISTED_SKIPS.
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
    this.drafts = new LinkDrafts(creation);
    this.named = new TagsByName(creation.tags, creation.quota, creation.ids, creation.clock);
  }

  async execute(ownerId: string, lines: Iterable<ImportLine> | AsyncIterable<ImportLine>): Promise<ImportReport> {
    const now = this.drafts.now();
    const skipped = new SkippedLines();
    const skip = (line: ImportLine, reason: ImportSkipReason, errors: FieldError[]) => skipped.add(line.line, reason, errors);
    const limit = await this.creation.quota.limitFor(ownerId, 'links');
    const quotaErrors = [{ name: 'links', error: `the links quota of your plan is used up (${limit})` }];
    const overQuota = (line: ImportLine) => skip(line, 'quota', quotaErrors);
    const room = Math.max(0, limit - (await this.creation.links.countOfOwner(ownerId)));

    // Each line by the rules of one creation, until the lines that passed fill the room; a chosen slug once in the file.
    const valid: { line: ImportLine; draft: Omit<LinkDraft, 'tags'> }[] = [];
    const slugLines = new Map<string, number>();
    let read = 0;
    for await (const line of lines) {
      if (++read % IMPORT_SLICE === 0) await yieldToEventLoop();
      if (valid.length >= room) {
        overQuota(line);
        continue;
      }
      const checked = this.checked(line, now, slugLines);
      if ('reason' in checked) skip(line, checked.reason, checked.errors);
      else valid.push({ line, draft: checked });
    }

    const { tags, refused } = await this.named.resolve(
      ownerId,
      valid.flatMap((v) => v.line.tags),
      true,
    );
    const drafts: { line: ImportLine; draft: LinkDraft }[] = [];
    for (const { line, draft } of valid) {
      const cannot = line.tags.filter((name) => refused.has(tagKey(name)));
      if (cannot.length)
        skip(line, 'quota', [{ name: 'tags', error: `the tags quota of your plan is used up: cannot make ${cannot.join(', ')}` }]);
      else drafts.push({ line, draft: { ...draft, tags: uniqueTags(line.tags.map((name) => tags.get(tagKey(name)) as Tag)) } });
    }

    let created = 0;
    for (let start = 0, retries = 0; start < drafts.length;) {
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
    return { created, skipped: skipped.listed(), skippedTotal: skipped.total, skippedByReason: skipped.byReason };
  }

  /** A line's draft, or why it is skipped; a chosen slug is remembered (in `slugLines`) with the first line that has it. */
  private checked(
    line: ImportLine,
    now: Date,
    slugLines: Map<string, number>,
  ): Omit<LinkDraft, 'tags'> | { reason: ImportSkipReason; errors: FieldError[] } {
    try {
      const { password: _none, ...checked } = this.drafts.checkFields(
        { url: line.url, slug: line.slug || undefined, title: line.title, description: line.description },
        now,
      );
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
        if (first !== undefined)
          return { reason: 'duplicate_slug', errors: [{ name: 'slug', error: `slug is already used by line ${first} of this file` }] };
        slugLines.set(checked.chosenSlug, line.line);
      }
      return { ...checked, passwordHash: null, domain: null };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return { reason: 'invalid', errors: error.errors };
    }
  }

  /** One batch in one unit of work (all or nothing under the quota); answers how many links it wrote. */
  private async insert(
    ownerId: string,
    chunk: { line: ImportLine; draft: LinkDraft }[],
    limit: number,
    now: Date,
    skip: (line: ImportLine, reason: ImportSkipReason, errors: FieldError[]) => void,
  ): Promise<number> {
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
    for (const link of taken)
      skip((itemOf.get(link.id) as { line: ImportLine }).line, 'duplicate_slug', [{ name: 'slug', error: SLUG_TAKEN_MESSAGE }]);
    // As one creation: a "not found" cached before a link existed is evicted, in every instance.
    for (const link of written) this.creation.changes.linkChanged(link.domainId, link.slug);
    return written.length;
  }
}

const uniqueTags = (tags: Tag[]) => [...new Map(tags.map((t) => [t.id, t])).values()];
