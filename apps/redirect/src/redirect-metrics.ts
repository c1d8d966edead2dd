import type { ClickMetrics } from '@lnk/analytics/domain';
import { PrometheusShortUrlCounters, ShortUrlCounters, ShortUrlOutcome } from '@lnk/links/adapter-http';
import { PoolFigures, ServiceMetrics } from '@lnk/shared/metrics';

/**
 * The redirect app's Prometheus metrics, under the API's names: what every app reports (ServiceMetrics:
 * clicks, pool, Node's own), plus short-URL requests by outcome (plain counters, one increment per request).
 */
export class RedirectMetrics extends ServiceMetrics implements ShortUrlCounters, ClickMetrics {
  private readonly outcomes: PrometheusShortUrlCounters;

  constructor(pool: () => PoolFigures | null) {
    super();
    this.watchPool(pool);
    this.outcomes = new PrometheusShortUrlCounters(this.registry);
  }

  count(outcome: ShortUrlOutcome): void {
    this.outcomes.count(outcome);
  }
}
