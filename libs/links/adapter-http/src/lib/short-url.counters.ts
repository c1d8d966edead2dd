import { Counter, Registry } from 'prom-client';
import type { ShortUrlCounters, ShortUrlOutcome } from './short-url.handler';

/**
 * `lnk_redirects_total` by outcome, for every app that answers short URLs. A request adds 1 to a plain
 * number; the counter takes what was added since when it is scraped (prom-client hashes and validates
 * the labels on every inc(), even through a labels() child, which showed on the redirect's profile).
 */
export class PrometheusShortUrlCounters implements ShortUrlCounters {
  private readonly counted = new Map<ShortUrlOutcome, { total: number; reported: number }>();

  constructor(registry: Registry) {
    const counted = this.counted;
    new Counter({
      name: 'lnk_redirects_total',
      help: 'Short-URL requests, by outcome',
      labelNames: ['outcome'],
      registers: [registry],
      collect() {
        for (const [outcome, figures] of counted) {
          if (figures.total === figures.reported) continue;
          this.inc({ outcome }, figures.total - figures.reported);
          figures.reported = figures.total;
        }
      },
    });
  }

  count(outcome: ShortUrlOutcome): void {
    const figures = this.counted.get(outcome);
    if (figures) figures.total++;
    else this.counted.set(outcome, { total: 1, reported: 0 });
  }
}
