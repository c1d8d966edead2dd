import { AsyncResource } from 'node:async_hooks';
import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { BoundedCache } from '@lnk/shared/cache';

/** When each live hit of one throttler on one key expires, ascending, from `head` on (the ones before it have expired). */
interface Hits {
  expiries: number[];
  head: number;
}

interface Entry {
  expiresAt: number;
  blockExpiresAt: number;
  isBlocked: boolean;
  hits: Map<string, Hits>;
}

/** What a storage answers a hit with (the package exports the storage interface, not this record's type). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Keys counted at most (addresses, tokens): past it the least recently counted goes first, so a flood of
 * distinct keys within a sweep's minute cannot grow the process without end; a key under attack is
 * counted at every request, so it stays.
 */
export const THROTTLER_MAX_KEYS = 100_000;

const live = (hits: Hits) => hits.expiries.length - hits.head;

/**
 * Rate-limit counters in memory (one instance), with the counting of @nestjs/throttler's
 * ThrottlerStorageService, step for step: each hit expires a ttl after it was counted, a key over its
 * limit is blocked for the block duration, then starts again from one hit.
 *
 * What differs is the cost. ThrottlerStorageService filters every hit the key holds into a new array on
 * every request to drop the expired ones: a budget of 600 a minute is up to 600 entries copied per
 * request, and at load (a budget of thousands a second) thousands, with the garbage to match. The hits
 * of a key are kept in the order they expire here, so the expired ones are the first few: each request
 * drops those and counts one.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly entries: BoundedCache<string, Entry>;
  private sweep?: NodeJS.Timeout;
  // Bound to the context this storage was made in: the timer does not keep the first request's.
  private readonly startSweep = AsyncResource.bind(() => {
    this.sweep = setInterval(() => this.evictIdle(), SWEEP_INTERVAL_MS);
    this.sweep.unref?.();
  });

  constructor(maxKeys = THROTTLER_MAX_KEYS) {
    this.entries = new BoundedCache({ maxEntries: maxKeys });
  }

  /** Keys counted now. */
  get size(): number {
    return this.entries.size;
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    if (!this.sweep) this.startSweep();
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { expiresAt: Date.now() + ttl, blockExpiresAt: 0, isBlocked: false, hits: new Map() };
      this.entries.set(key, entry);
    }
    let hits = entry.hits.get(throttlerName);
    if (!hits) {
      hits = { expiries: [], head: 0 };
      entry.hits.set(throttlerName, hits);
    }
    prune(hits, Date.now());
    let timeToExpire = Math.ceil((entry.expiresAt - Date.now()) / 1000);
    if (timeToExpire <= 0) {
      entry.expiresAt = Date.now() + ttl;
      timeToExpire = Math.ceil((entry.expiresAt - Date.now()) / 1000);
    }
    if (blockDuration <= 0) {
      const isBlocked = live(hits) >= limit;
      if (!isBlocked) count(hits, Date.now() + ttl);
      const timeToBlockExpire = live(hits) ? Math.ceil((hits.expiries[hits.head] - Date.now()) / 1000) : timeToExpire;
      return { totalHits: live(hits) + (isBlocked ? 1 : 0), timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToBlockExpire : 0 };
    }
    if (!entry.isBlocked) count(hits, Date.now() + ttl);
    if (live(hits) > limit && !entry.isBlocked) {
      entry.isBlocked = true;
      entry.blockExpiresAt = Date.now() + blockDuration;
    }
    const timeToBlockExpire = Math.ceil((entry.blockExpiresAt - Date.now()) / 1000);
    if (timeToBlockExpire <= 0 && entry.isBlocked) {
      entry.isBlocked = false;
      hits.expiries = [];
      hits.head = 0;
      count(hits, Date.now() + ttl);
    }
    return { totalHits: live(hits), timeToExpire, isBlocked: entry.isBlocked, timeToBlockExpire };
  }

  /** Forgets the keys with nothing left to remember: not blocked, past their window, no live hit. */
  evictIdle(now = Date.now()): void {
    for (const [key, entry] of this.entries.entries()) {
      if (entry.isBlocked && entry.blockExpiresAt > now) continue;
      if (entry.expiresAt > now) continue;
      if ([...entry.hits.values()].some((hits) => live(hits) > 0 && hits.expiries[hits.expiries.length - 1] > now)) continue;
      this.entries.delete(key);
    }
  }

  onApplicationShutdown(): void {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
    this.entries.clear();
  }
}

/** Counts a hit expiring at `expiry`, in its place in the order (the last one but after a clock step back, or a shorter ttl). */
function count(hits: Hits, expiry: number): void {
  const { expiries } = hits;
  let at = expiries.length;
  while (at > hits.head && expiries[at - 1] > expiry) at--;
  if (at === expiries.length) expiries.push(expiry);
  else expiries.splice(at, 0, expiry);
}

/** Drops the hits expired at `now` (the first ones), and lets go of their slots once they are many. */
function prune(hits: Hits, now: number): void {
  const { expiries } = hits;
  while (hits.head < expiries.length && expiries[hits.head] <= now) hits.head++;
  if (hits.head === expiries.length) {
    hits.expiries = [];
    hits.head = 0;
  } else if (hits.head >= 1024 && hits.head * 2 >= expiries.length) {
    hits.expiries = expiries.slice(hits.head);
    hits.head = 0;
  }
}
