import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

/** The pool figures of node-postgres (`pg.Pool`); PGlite has no pool. */
export interface PoolFigures {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** node-postgres pool figures of a DataSource, read at each scrape; null when the database is not PostgreSQL. */
export function poolFiguresOf(dataSource: DataSource): () => PoolFigures | null {
  return () => {
    const pool = (dataSource.driver as { master?: Partial<PoolFigures> }).master;
    return pool && typeof pool.totalCount === 'number'
      ? { totalCount: pool.totalCount, idleCount: pool.idleCount ?? 0, waitingCount: pool.waitingCount ?? 0 }
      : null;
  };
}

/**
 * The metrics every app of the service exposes under the same names, in a registry of its own (one per
 * app instance, so several apps in one process, as in tests, do not collide): Node's process metrics,
 * clicks written, dropped and waiting in the buffer, and the database pool. Each app adds its own series
 * to `registry`. `written` and `dropped` are the analytics domain's ClickMetrics.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly clicksWritten: Counter;
  private readonly clicksDropped: Counter;
  private readonly clickEventsDropped: Counter;
  private bufferedRows: () => number = () => 0;
  private pool: () => PoolFigures | null = () => null;
  private readonly redis = new Map<string, () => boolean>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'lnk_' });
    const registers = [this.registry];
    this.clicksWritten = new Counter({ name: 'lnk_clicks_written_total', help: 'Click rows written to the database', registers });
    this.clicksDropped = new Counter({ name: 'lnk_clicks_dropped_total', help: 'Clicks dropped because the buffer was full', registers });
    this.clickEventsDropped = new Counter({
      name: 'lnk_click_events_dropped_total',
      help: 'link.clicked webhook events dropped because the buffer held CLICK_EVENTS_MAX unwritten',
      registers,
    });
    const bufferedRows = () => this.bufferedRows();
    const pool = () => this.pool();
    const redis = this.redis;
    new Gauge({
      name: 'lnk_clicks_buffered_rows',
      help: 'Click rows waiting in the buffer to be written',
      registers,
      collect() {
        this.set(bufferedRows());
      },
    });
    new Gauge({
      name: 'lnk_db_pool_connections',
      help: 'Database pool connections by state (PostgreSQL only)',
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
    new Gauge({
      name: 'lnk_redis_up',
      help:
        'Whether Redis answers, by use (invalidations: the cache-invalidation subscription; ' +
        'rate_limits: the shared counters); 0: a degraded mode (REDIS_URL set only)',
      labelNames: ['use'],
      registers,
      collect() {
        for (const [use, up] of redis) this.set({ use }, up() ? 1 : 0);
      },
    });
  }

  written(count: number): void {
    this.clicksWritten.inc(count);
  }

  dropped(count: number): void {
    this.clicksDropped.inc(count);
  }

  eventsDropped(count: number): void {
    this.clickEventsDropped.inc(count);
  }

  /** These metrics as the click buffer's ClickMetrics, each drop also an error in the log: dropped clicks are lost. */
  clickMetricsLoggingDrops(logger: { error(fields: object, message: string): void }): {
    written(count: number): void;
    dropped(count: number): void;
    eventsDropped(count: number): void;
  } {
    return {
      written: (count) => this.written(count),
      dropped: (count) => {
        this.dropped(count);
        logger.error({ dropped: count }, 'click buffer full: clicks dropped');
      },
      eventsDropped: (count) => {
        this.eventsDropped(count);
        logger.error({ dropped: count }, 'click buffer full: link.clicked events dropped (the clicks themselves are counted)');
      },
    };
  }

  /** The click buffer is made after the metrics (it reports to them), so its size is given later. */
  watchClickBuffer(size: () => number): void {
    this.bufferedRows = size;
  }

  watchPool(figures: () => PoolFigures | null): void {
    this.pool = figures;
  }

  /** A use of Redis (`invalidations`, `rate_limits`) and whether it is served by Redis now. */
  watchRedis(use: string, up: () => boolean): void {
    this.redis.set(use, up);
  }
}
