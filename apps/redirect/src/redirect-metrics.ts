import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { ClickMetrics } from '@lnk/analytics/domain';
import type { ShortUrlCounters, ShortUrlOutcome } from '@lnk/links/adapter-http';

const OUTCOMES: ShortUrlOutcome[] = ['redirect', 'not_found', 'password_page', 'password_failed', 'rate_limited', 'error'];

/**
 * The redirect app's Prometheus metrics, under the API's names: short-URL requests by outcome (plain
 * counters, one increment per request), clicks written and dropped, rows buffered, the pool, Node's own.
 */
export class RedirectMetrics implements ShortUrlCounters, ClickMetrics {
  readonly registry = new Registry();
  /** Per outcome: requests counted, and how many of them the Prometheus counter has been given. */
  private readonly counted = new Map<ShortUrlOutcome, { total: number; reported: number }>(OUTCOMES.map((o) => [o, { total: 0, reported: 0 }]));
  private readonly clicksWritten: Counter;
  private readonly clicksDropped: Counter;

  constructor(bufferedRows: () => number, pool: () => { totalCount: number; idleCount: number; waitingCount: number } | null) {
    collectDefaultMetrics({ register: this.registry, prefix: 'lnk_' });
    const registers = [this.registry];
    // A request adds 1 to a plain number; the counter takes what was added since when it is scraped
    // (prom-client hashes and validates the labels on every inc(), even through a labels() child).
    const counted = this.counted;
    new Counter({
      name: 'lnk_redirects_total',
      help: 'Short-URL requests, by outcome',
      labelNames: ['outcome'],
      registers,
      collect() {
        for (const [outcome, figures] of counted) {
          if (figures.total === figures.reported) continue;
          this.inc({ outcome }, figures.total - figures.reported);
          figures.reported = figures.total;
        }
      },
    });
    this.clicksWritten = new Counter({ name: 'lnk_clicks_written_total', help: 'Click rows written to the database', registers });
    this.clicksDropped = new Counter({ name: 'lnk_clicks_dropped_total', help: 'Clicks dropped because the buffer was full', registers });
    new Gauge({ name: 'lnk_clicks_buffered_rows', help: 'Click rows waiting in the buffer to be written', registers, collect() { this.set(bufferedRows()); } });
    new Gauge({
      name: 'lnk_db_pool_connections',
      help: 'Database pool connections by state',
      labelNames: ['state'],
      registers,
      collect() {
        const figures = pool();
        if (!figures) return;
        this.set({ state: 'total' }, figures.totalCount);
        this.set({ state: 'idle' }, figures.idleCount);
        this.set({ state: 'waiting' }, figures.waitingCount);
      },
    });
  }

  count(outcome: ShortUrlOutcome): void {
    const figures = this.counted.get(outcome);
    if (figures) figures.total++;
  }

  written(count: number): void {
    this.clicksWritten.inc(count);
  }

  dropped(count: number): void {
    this.clicksDropped.inc(count);
  }
}
