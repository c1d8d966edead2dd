import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ClickMetrics } from '@lnk/analytics/domain';
import { PrometheusShortUrlCounters, ShortUrlOutcome } from '@lnk/links/adapter-http';

/** The pool figures of node-postgres (`pg.Pool`); PGlite has no pool. */
export interface PoolFigures {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * The service's Prometheus metrics, in a registry of its own (one per app instance, so several apps in
 * one process, as in tests, do not collide): HTTP requests by route and status, redirects, clicks
 * buffered/written/dropped, database pool use, and Node's process metrics.
 */
@Injectable()
export class AppMetrics implements ClickMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  private readonly clicksWritten: Counter;
  private readonly clicksDropped: Counter;
  private readonly requestSeries = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();
  private readonly redirects: PrometheusShortUrlCounters;
  private bufferedRows: () => number = () => 0;
  private pool: () => PoolFigures | null = () => null;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'lnk_' });
    const registers = [this.registry];
    this.requests = new Counter({ name: 'lnk_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({
      name: 'lnk_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.redirects = new PrometheusShortUrlCounters(this.registry);
    this.clicksWritten = new Counter({ name: 'lnk_clicks_written_total', help: 'Click rows written to the database', registers });
    this.clicksDropped = new Counter({ name: 'lnk_clicks_dropped_total', help: 'Clicks dropped because the buffer was full', registers });
    const bufferedRows = () => this.bufferedRows();
    const pool = () => this.pool();
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
  }

  /**
   * Runs on every request, redirects included: the labelled series are looked up once per (method,
   * route, status) and kept, instead of prom-client hashing the labels on every observation.
   */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { count: this.requests.labels(labels), latency: this.latency.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.latency.observe(seconds);
  }

  redirect(outcome: ShortUrlOutcome): void {
    this.redirects.count(outcome);
  }

  written(count: number): void {
    this.clicksWritten.inc(count);
  }

  dropped(count: number): void {
    this.clicksDropped.inc(count);
  }

  watchClickBuffer(size: () => number): void {
    this.bufferedRows = size;
  }

  watchPool(figures: () => PoolFigures | null): void {
    this.pool = figures;
  }
}
