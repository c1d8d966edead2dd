import { FieldError, ValidationError } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';
import { LinkView } from '../use-cases/link.types';

/** At most this many links, ids or lines of one bulk request (issue 18). */
export const MAX_BULK_ITEMS = 100;
/** As a link's own tags (LinkRules). */
export const MAX_TAGS_PER_LINK = 50;
/** Draws of a generated slug before a collision is the answer (one creation, a batch, an import). */
export const SLUG_ATTEMPTS = 5;

export const SLUG_TAKEN_MESSAGE = 'slug is already taken on this domain';
export const SLUG_REPEATED_MESSAGE = 'slug is already used by an earlier link of this request';

/**
 * Why a line of an import or an item of a bulk creation was not created: its fields (invalid), its slug
 * (duplicate_slug: repeated in the request or taken already), or no room left in a quota (quota).
 */
export type SkipReason = 'invalid' | 'duplicate_slug' | 'quota';
export const SKIP_REASONS: readonly SkipReason[] = ['invalid', 'duplicate_slug', 'quota'];

/** One item of a bulk answer: the created link, or why it was not. */
export type BulkCreated = { view: LinkView } | { errors: FieldError[]; reason: SkipReason };

export const slugKey = (domainId: string | null, slug: string) => `${domainId ?? ''}/${slug}`;

export function checkCount(name: string, n: number): void {
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

/** One id of a bulk delete or retag: whether it named a link of the caller's (the others are not touched). */
export interface BulkOutcome {
  id: string;
  found: boolean;
}
