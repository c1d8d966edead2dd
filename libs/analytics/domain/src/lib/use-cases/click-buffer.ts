import { ClickCounts, ClickEvent, rollupKey } from '../model/click';
import { UnitOfWork } from '@lnk/shared/kernel';
import { ClickMetrics, LinkClickTotals, StatsRepository } from '../ports/stats.ports';

export interface ClickBufferOptions {
  /** Most distinct rollup rows held while the database cannot take them; beyond, new events are dropped. */
  maxRows: number;
}

/**
 * Counts clicks off the request's critical path: events are folded into in-memory rollup rows and
 * written in batches by `flush()` (called on a timer and at shutdown). A failed write keeps the rows
 * for the next flush, so nothing is lost while the database is briefly away, up to `maxRows`.
 */
export class ClickBuffer {
  private pending = new Map<string, ClickCounts>();
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly stats: StatsRepository,
    private readonly totals: LinkClickTotals,
    private readonly unitOfWork: UnitOfWork,
    private readonly metrics: ClickMetrics,
    private readonly options: ClickBufferOptions = { maxRows: 100_000 },
  ) {}

  get size(): number {
    return this.pending.size;
  }

  record(event: ClickEvent): void {
    const key = rollupKey(event);
    let row = this.pending.get(key);
    if (!row) {
      if (this.pending.size >= this.options.maxRows) {
        this.metrics.dropped(1);
        return;
      }
      row = {
        date: key.slice(0, 10),
        linkId: event.linkId,
        ownerId: event.ownerId,
        domainId: event.domainId,
        linkName: event.linkName,
        domainName: event.domainName,
        utmSource: event.utmSource,
        utmMedium: event.utmMedium,
        utmCampaign: event.utmCampaign,
        visits: 0,
        passwordPassed: 0,
        passwordFailed: 0,
      };
      this.pending.set(key, row);
    }
    row[event.kind === 'visit' ? 'visits' : event.kind] += 1;
  }

  /** Writes what is buffered; concurrent calls share one write. Rejects (keeping the rows) if it fails. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      const rows = [...batch.values()];
      const visits = new Map<string, number>();
      for (const row of rows) if (row.visits) visits.set(row.linkId, (visits.get(row.linkId) ?? 0) + row.visits);
      // Rollups and link totals move together, so the two never disagree.
      await this.unitOfWork.run(async () => {
        await this.stats.addCounts(rows);
        await this.totals.addVisits(visits);
      });
      this.metrics.written([...batch.values()].reduce((n, r) => n + r.visits + r.passwordPassed + r.passwordFailed, 0));
    } catch (error) {
      // Put the batch back in front of what arrived meanwhile, merging rows with the same key.
      for (const [key, row] of this.pending) {
        const kept = batch.get(key);
        if (kept) {
          kept.visits += row.visits;
          kept.passwordPassed += row.passwordPassed;
          kept.passwordFailed += row.passwordFailed;
        } else if (batch.size < this.options.maxRows) batch.set(key, row);
        else this.metrics.dropped(row.visits + row.passwordPassed + row.passwordFailed);
      }
      this.pending = batch;
      throw error;
    }
  }
}
