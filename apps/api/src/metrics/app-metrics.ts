import { Injectable } from '@nestjs/common';
import type { ClickMetrics } from '@lnk/analytics/domain';
import { PrometheusShortUrlCounters, ShortUrlOutcome } from '@lnk/links/adapter-http';
import { ServiceMetrics } from '@lnk/shared/metrics';
import { RequestMetrics } from './request-metrics';

/**
 * The API's Prometheus metrics: what every app reports (ServiceMetrics: clicks, pool, Node's own), plus
 * HTTP requests by route and status, and redirects by outcome.
 */
@Injectable()
export class AppMetrics extends ServiceMetrics implements ClickMetrics {
  private readonly requests: RequestMetrics;
  private readonly redirects: PrometheusShortUrlCounters;

  constructor() {
    super();
    // lnk_http_requests_total and lnk_http_request_duration_seconds (request-metrics.ts).
    this.requests = new RequestMetrics(this.registry);
    this.redirects = new PrometheusShortUrlCounters(this.registry);
  }

  /** Runs on every request, redirects included. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  redirect(outcome: ShortUrlOutcome): void {
    this.redirects.count(outcome);
  }
}
