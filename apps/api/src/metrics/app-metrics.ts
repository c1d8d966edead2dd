import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import type { ClickMetrics } from '@lnk/analytics/domain';
import { PrometheusShortUrlCounters, ShortUrlOutcome } from '@lnk/links/adapter-http';
import { ServiceMetrics } from '@lnk/shared/metrics';

/**
 * The API's Prometheus metrics: what every app reports (ServiceMetrics: clicks, pool, Node's own), plus
 * HTTP requests by route and status, and redirects by outcome.
 */
@Injectable()
export class AppMetrics extends ServiceMetrics implements ClickMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  private readonly requestSeries = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();
  private readonly redirects: PrometheusShortUrlCounters;

  constructor() {
    super();
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
}
