import { PatUses } from '@lnk/identity/domain';
import { BoundedCache } from '@lnk/shared/cache';
import { Clock } from '@lnk/shared/kernel';

export interface PatUseThrottle {
  clock: Clock;
  /** A PAT's use is written at most this often (a minute by default). */
  intervalMs?: number;
  /** Tokens remembered as written lately, at most (past it the least recently used is written again sooner). */
  maxEntries?: number;
}

/**
 * A PAT's lastUsedAt is a write: at most one per token per interval, however busy the token. A write that
 * failed is forgotten, so the next use tries again.
 */
export class ThrottledPatUses extends PatUses {
  private readonly touched: BoundedCache<string, true>;

  constructor(
    private readonly inner: PatUses,
    { clock, intervalMs = 60_000, maxEntries = 10_000 }: PatUseThrottle,
  ) {
    super();
    this.touched = new BoundedCache({ maxEntries, ttlMs: intervalMs, now: () => clock.now().getTime() });
  }

  async touch(id: string, at: Date): Promise<void> {
    if (this.touched.get(id)) return;
    this.touched.set(id, true);
    try {
      await this.inner.touch(id, at);
    } catch (error) {
      this.touched.delete(id);
      throw error;
    }
  }
}
