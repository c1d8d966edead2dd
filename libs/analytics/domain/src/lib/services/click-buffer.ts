import { ClickCounts, hasNoUtm, isOutsideUtmBounds, MAX_UTM_COMBINATIONS_PER_LINK_DAY, normaliseUtm, OTHER_UTM, rollupKey } from '../model/click';
import { LinkClicked, UnitOfWork } from '@lnk/shared/kernel';
import { ClickMetrics } from '../ports/click-metrics.port';
import { LinkClickTotals } from '../ports/link-click-totals.port';
import { StatsRepository } from '../ports/stats.repository';

export interface ClickBufferOptions {
  /** Most distinct rollup rows held while the database cannot take them; beyond, new events are dropped. */
  maxRows: number;
  /**
   * Most rows one account holds with their own UTM values: beyond, that account's new combinations are
   * counted in its links' `(other)` rows, so a flood from one account cannot fill the buffer for others.
   */
  maxRowsPerOwner: number;
  /** Most distinct UTM combinations per (link, UTC day) held; further ones are counted under `(other)`. */
  maxUtmCombinations: number;
}

const DAY_MS = 86_400_000;

const DEFAULTS: ClickBufferOptions = { maxRows: 100_000, maxRowsPerOwner: 10_000, maxUtmCombinations: MAX_UTM_COMBINATIONS_PER_LINK_DAY };

/**
 * Counts clicks off the request's critical path: events are folded into in-memory rollup rows and
 * written in batches by `flush()` (called on a timer and at shutdown). A failed write keeps the rows
 * for the next flush, so nothing is lost while the database is briefly away, up to `maxRows`.
 *
 * UTM values come from anonymous visitors: they are normalised (`normaliseUtm`), and each (link, day)
 * and each account gets a bounded number of combinations; what goes beyond is counted, under `(other)`.
 * The repository applies the per-(link, day) bound again against the rows already written.
 */
export class ClickBuffer {
  private pending = new Map<string, ClickCounts>();
  /** Rows of `pending` per owner, and combinations (other than `(other)`) per (date, link). */
  private rowsPerOwner = new Map<string, number>();
  private combinationsPerLinkDay = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private readonly options: ClickBufferOptions;

  constructor(
    private readonly stats: StatsRepository,
    private readonly totals: LinkClickTotals,
    private readonly unitOfWork: UnitOfWork,
    private readonly metrics: ClickMetrics,
    options: Partial<ClickBufferOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  get size(): number {
    return this.pending.size;
  }

  record(event: LinkClicked): void {
    const date = this.dateOf(event.at);
    const utmSource = normaliseUtm(event.utmSource);
    const utmMedium = normaliseUtm(event.utmMedium);
    const utmCampaign = normaliseUtm(event.utmCampaign);
    // The usual case, a visit to a row already pending: one key, one map lookup, an increment.
    if (event.kind === 'visit') {
      const row = this.pending.get(rollupKey({ date, linkId: event.linkId, utmSource, utmMedium, utmCampaign }));
      if (row) {
        row.visits += 1;
        return;
      }
    }
    this.absorb({
      date,
      linkId: event.linkId,
      ownerId: event.ownerId,
      domainId: event.domainId,
      linkName: event.linkName,
      domainName: event.domainName,
      utmSource,
      utmMedium,
      utmCampaign,
      visits: event.kind === 'visit' ? 1 : 0,
      passwordPassed: event.kind === 'passwordPassed' ? 1 : 0,
      passwordFailed: event.kind === 'passwordFailed' ? 1 : 0,
    });
  }

  /** The UTC date (YYYY-MM-DD) of a moment; the current day's string is kept, not formatted per click. */
  private dayStart = 0;
  private dayEnd = 0;
  private day = '';

  private dateOf(at: Date): string {
    const ms = at.getTime();
    if (ms >= this.dayStart && ms < this.dayEnd) return this.day;
    this.dayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
    this.dayEnd = this.dayStart + DAY_MS;
    this.day = new Date(this.dayStart).toISOString().slice(0, 10);
    return this.day;
  }

  /**
   * Writes what is buffered, one write at a time. A call made while a write is under way waits for it and
   * then for a write of what arrived since (callers made meanwhile share that one): whoever awaits flush()
   * finds every click recorded before the call written. Rejects (keeping the rows) if its write fails.
   */
  flush(): Promise<void> {
    if (this.flushing) {
      this.queued ??= this.flushing
        .catch(() => undefined)
        .then(() => {
          this.queued = null;
          return this.flush();
        });
      return this.queued;
    }
    this.flushing = this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private hasRoomFor(ownerId: string, date: string, linkId: string): boolean {
    return (this.rowsPerOwner.get(ownerId) ?? 0) < this.options.maxRowsPerOwner && (this.combinationsPerLinkDay.get(`${date}\u0000${linkId}`) ?? 0) < this.options.maxUtmCombinations;
  }

  /** Adds counts to their row: a new combination beyond the bounds goes to `(other)`; a new row beyond `maxRows` is dropped. */
  private absorb(counts: ClickCounts): void {
    let key = rollupKey(counts);
    let row = this.pending.get(key);
    if (!row && !isOutsideUtmBounds(counts) && !this.hasRoomFor(counts.ownerId, counts.date, counts.linkId)) {
      counts = { ...counts, utmSource: OTHER_UTM, utmMedium: OTHER_UTM, utmCampaign: OTHER_UTM };
      key = rollupKey(counts);
      row = this.pending.get(key);
    }
    if (row) {
      row.visits += counts.visits;
      row.passwordPassed += counts.passwordPassed;
      row.passwordFailed += counts.passwordFailed;
    } else if (this.pending.size < this.options.maxRows) this.add(key, { ...counts });
    else this.metrics.dropped(counts.visits + counts.passwordPassed + counts.passwordFailed);
  }

  private add(key: string, row: ClickCounts): void {
    this.pending.set(key, row);
    // Rows without UTM values are bounded by the account's links, not by what visitors send: no share.
    if (!hasNoUtm(row)) this.rowsPerOwner.set(row.ownerId, (this.rowsPerOwner.get(row.ownerId) ?? 0) + 1);
    if (!isOutsideUtmBounds(row)) {
      const linkDay = `${row.date}\u0000${row.linkId}`;
      this.combinationsPerLinkDay.set(linkDay, (this.combinationsPerLinkDay.get(linkDay) ?? 0) + 1);
    }
  }

  private reset(): void {
    this.pending = new Map();
    this.rowsPerOwner = new Map();
    this.combinationsPerLinkDay = new Map();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.reset();
    try {
      const rows = [...batch.values()];
      const visits = new Map<string, number>();
      for (const row of rows) if (row.visits) visits.set(row.linkId, (visits.get(row.linkId) ?? 0) + row.visits);
      // Rollups and link totals move together, so the two never disagree.
      await this.unitOfWork.run(async () => {
        await this.stats.addCounts(rows, this.options.maxUtmCombinations);
        await this.totals.addVisits(visits);
      });
      this.metrics.written(rows.reduce((n, r) => n + r.visits + r.passwordPassed + r.passwordFailed, 0));
    } catch (error) {
      // Put the batch back in front of what arrived meanwhile, merging rows with the same key.
      const arrived = [...this.pending.values()];
      this.reset();
      for (const [key, row] of batch) this.add(key, row);
      for (const row of arrived) this.absorb(row);
      throw error;
    }
  }
}
