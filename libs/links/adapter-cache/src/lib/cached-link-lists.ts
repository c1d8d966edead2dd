import { LinkListAnswer, LinkListChanges, LinkListQuery, LinkLists } from '@lnk/links/domain';
import { LookupCache } from '@lnk/shared/cache';

export interface LinkListCacheOptions {
  /** Answers held, across every owner; 0: nothing is kept. */
  maxEntries: number;
  /** Their weight (see `weigh`) in all: an answer heavier than a quarter of it is not kept. */
  maxBytes: number;
  /**
   * How long an answer is given without reading again: its click totals and visit counts are written
   * elsewhere (the click buffer, another process) and do not invalidate it, so they may lag this much more.
   */
  maxAgeMs: number;
}

/**
 * The cache key of a list query, owner apart; null: an answer never kept. Every parameter that changes the
 * answer goes into it, and nothing else (so equal questions share one entry).
 */
export function linkListKey({ q, page, filter }: LinkListQuery): string | null {
  // An answer filtered by expiry changes with the clock alone (a link expires at its time): never kept.
  if (filter.expired !== undefined) return null;
  // The search is case-insensitive (the repository compares lowercased): one entry for every spelling. The
  // sort, tag and favourites filter (issue 31) each make another answer; JSON keeps a title position's
  // commas and colons from running into the next part.
  return JSON.stringify([
    page.start,
    page.limit,
    page.after,
    q?.toLowerCase() ?? null,
    filter.sort ?? 'newest',
    filter.tagId ?? null,
    filter.favorite ?? false,
  ]);
}

/**
 * About what an answer holds in memory, in bytes (strings as UTF-16, plus each link's other fields and
 * objects): what the cache's byte bound counts.
 */
export function weighLinkListAnswer(answer: LinkListAnswer): number {
  let bytes = 200;
  for (const link of answer.page.items)
    bytes +=
      400 +
      2 * (link.id.length + link.slug.length + link.url.length + link.title.length + link.description.length) +
      (link.hasOptions ? 400 : 0);
  for (const name of answer.domainNames.values()) bytes += 100 + 2 * name.length;
  return bytes;
}

/** Owner ids never hold a newline: the owner part of a key cannot run into the query part. */
const keyOf = (ownerId: string, query: string) => `${ownerId}\n${query}`;
const ownerOf = (key: string) => key.slice(0, key.indexOf('\n'));

/**
 * List answers by owner and query in front of the lists' reads, kept until a change of that owner's links
 * (`linksChanged`: the link repository reports every write, with Redis on every instance), a resync
 * (`clear`) or their max age, whichever comes first; least recently used first out past the entry or byte
 * bound. A read that a change of its owner (or a clear) overtook answers its request but is not kept: it may
 * hold the rows from before the change. Concurrent misses of one list share one read.
 *
 * An owner's keys are indexed (held or being read), so evicting them costs their number, not the cache's
 * size; the index holds no key that is neither. Answers are frozen: shared by every request they answer.
 */
export class CachedLinkLists extends LinkLists implements LinkListChanges {
  private readonly answers: LookupCache<string, LinkListAnswer> | null;
  private readonly keysOf = new Map<string, Set<string>>();

  constructor(
    private readonly inner: LinkLists,
    options: LinkListCacheOptions,
    weigh: (answer: LinkListAnswer) => number = weighLinkListAnswer,
    now?: () => number,
  ) {
    super();
    const { maxEntries, maxBytes, maxAgeMs } = options;
    const found = {
      maxEntries,
      ttlMs: maxAgeMs,
      maxWeight: maxBytes,
      maxEntryWeight: maxBytes / 4,
      weigh,
      now,
      onRemove: (_: LinkListAnswer, key: string) => this.unindexUnlessLoading(key),
    };
    this.answers = maxEntries > 0 ? new LookupCache({ found }) : null;
  }

  async listOf(ownerId: string, query: LinkListQuery): Promise<LinkListAnswer> {
    const queryKey = linkListKey(query);
    if (queryKey === null || this.answers === null) return this.inner.listOf(ownerId, query);
    const key = keyOf(ownerId, queryKey);
    const known = this.answers.cached(key);
    if (known) return known;
    this.index(ownerId, key);
    try {
      // A read always answers a list (never "nothing"): the cache gives back what the read gave.
      return (await this.answers.get(key, async () => frozen(await this.inner.listOf(ownerId, query)))) as LinkListAnswer;
    } finally {
      // Not kept (overtaken, too heavy, failed): the index lets it go.
      if (this.answers.cached(key) === undefined) this.unindexUnlessLoading(key);
    }
  }

  linksChanged(ownerId: string): void {
    const keys = this.keysOf.get(ownerId);
    if (!keys) return;
    this.keysOf.delete(ownerId);
    for (const key of keys) this.answers?.delete(key);
  }

  /** Forgets every answer (a resync: changes made on other instances may have been missed). */
  clear(): void {
    this.answers?.clear();
    this.keysOf.clear();
  }

  /** Answers held, their weight in all, and the owners indexed. */
  get size(): { entries: number; bytes: number; owners: number } {
    return { entries: this.answers?.size.found ?? 0, bytes: this.answers?.weight ?? 0, owners: this.keysOf.size };
  }

  private index(ownerId: string, key: string): void {
    let keys = this.keysOf.get(ownerId);
    if (!keys) this.keysOf.set(ownerId, (keys = new Set()));
    keys.add(key);
  }

  /** A key read again now stays indexed: its read may keep it. */
  private unindexUnlessLoading(key: string): void {
    if (this.answers?.isLoading(key)) return;
    const ownerId = ownerOf(key);
    const keys = this.keysOf.get(ownerId);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.keysOf.delete(ownerId);
  }
}

/** Shared by every request it answers from now on: nobody may change it. */
function frozen(answer: LinkListAnswer): LinkListAnswer {
  Object.freeze(answer.page.items);
  Object.freeze(answer.page);
  return Object.freeze(answer);
}
