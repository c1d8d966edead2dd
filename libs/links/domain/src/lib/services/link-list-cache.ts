import { LinkListChanges } from '../ports/link-list-changes.port';

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

interface Entry<V> {
  ownerId: string;
  value: V;
  bytes: number;
  storedAt: number;
}

/** Buckets of owners for the load guard: a change of one owner spoils the loads of 1/GUARD_BUCKETS of the others. */
const GUARD_BUCKETS = 256;

/**
 * List answers by owner and query, kept until a change of that owner's links (`linksChanged`), a resync
 * (`clear`) or their max age, whichever comes first; least recently used first out past the entry or byte
 * bound. The kernel's TtlLruCache has neither an owner's eviction nor a byte bound, so this keeps its own
 * map (an owner's keys are indexed, so evicting them costs their number, not the cache's size).
 *
 * An answer is shared by every request that gets it: callers present it and never change it.
 */
export class LinkListCache<V> extends LinkListChanges {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly keysOf = new Map<string, Set<string>>();
  private readonly generations = new Uint32Array(GUARD_BUCKETS);
  private clears = 0;
  private bytes = 0;

  constructor(
    private readonly options: LinkListCacheOptions,
    private readonly weigh: (value: V) => number,
    private readonly now: () => number,
  ) {
    super();
  }

  /** The owner's answer to `query` (a normalised key), or undefined when none is held or it is past its age. */
  get(ownerId: string, query: string): V | undefined {
    const key = keyOf(ownerId, query);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() - entry.storedAt >= this.options.maxAgeMs) {
      this.drop(key, entry);
      return undefined;
    }
    // To the back of the map: the front is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Read before loading an answer, and given to `set`: a change committed meanwhile keeps the load out. */
  guardOf(ownerId: string): number {
    return this.generations[bucketOf(ownerId)] + this.clears * GUARD_BUCKETS;
  }

  /**
   * Keeps the answer unless a change of the owner's links (or a clear) came since `guard` was read: the load
   * may have read the rows before that change committed, and would otherwise be answered until its max age.
   */
  set(ownerId: string, query: string, guard: number, value: V): void {
    if (guard !== this.guardOf(ownerId) || this.options.maxEntries <= 0) return;
    const bytes = this.weigh(value);
    if (bytes > this.options.maxBytes / 4) return;
    const key = keyOf(ownerId, query);
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { ownerId, value, bytes, storedAt: this.now() });
    let keys = this.keysOf.get(ownerId);
    if (!keys) this.keysOf.set(ownerId, (keys = new Set()));
    keys.add(key);
    this.bytes += bytes;
    while (this.entries.size > this.options.maxEntries || this.bytes > this.options.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry<V>];
      this.drop(oldestKey, oldest);
    }
  }

  linksChanged(ownerId: string): void {
    this.generations[bucketOf(ownerId)]++;
    const keys = this.keysOf.get(ownerId);
    if (!keys) return;
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (entry) this.drop(key, entry);
    }
  }

  /** Forgets every answer (a resync: changes made on other instances may have been missed). */
  clear(): void {
    this.clears++;
    this.entries.clear();
    this.keysOf.clear();
    this.bytes = 0;
  }

  /** Answers held, and their weight in all. */
  get size(): { entries: number; bytes: number; owners: number } {
    return { entries: this.entries.size, bytes: this.bytes, owners: this.keysOf.size };
  }

  private drop(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    const keys = this.keysOf.get(entry.ownerId);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.keysOf.delete(entry.ownerId);
  }
}

/** Owner ids never hold a newline: the owner part of a key cannot run into the query part. */
const keyOf = (ownerId: string, query: string) => `${ownerId}\n${query}`;

function bucketOf(ownerId: string): number {
  let hash = 0;
  for (let i = 0; i < ownerId.length; i++) hash = (hash * 31 + ownerId.charCodeAt(i)) | 0;
  return (hash >>> 0) % GUARD_BUCKETS;
}
