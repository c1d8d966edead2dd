import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { ClickMetrics } from '@lnk/analytics/domain';
import { PrometheusShortUrlCounters, ShortUrlCounters, ShortUrlOutcome } from '@lnk/links/adapter-http';

/**
 * The redirect app's Prometheus metrics, under the API's names: short-URL requests by outcome (plain
 * counters, one increment per request), clicks written and dropped, rows buffered, the pool, Node's own.
 */
export class RedirectMetrics implements ShortUrlCounters, ClickMetrics {
  readonly registry = new Registry();
  private readonly outcomes: PrometheusShortUrlCounters;
  private readonly clicksWritten: Counter;
  private readonly clicksDropped: Counter;

  constructor(bufferedRows: () => number, pool: () => { totalCount: number; idleCount: number; waitingCount: number } | null) {
    collectDefaultMetrics({ register: this.registry, prefix: 'lnk_' });
    const registers = [this.registry];
    this.outcomes = new PrometheusShortUrlCounters(this.registry);
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
    this.outcomes.count(outcome);
  }

  written(count: number): void {
    this.clicksWritten.inc(count);
  }

  dropped(count: number): void {
    this.clicksDropped.inc(count);
  }
}
