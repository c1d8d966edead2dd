import type { Metric, Registry } from 'prom-client';

type Labels = { method: string; route: string; status: string };

interface Series {
  labels: Labels;
  /** Observations per bucket (not cumulative): the first bound each is at or below; none for those above the last. */
  inBucket: number[];
  sum: number;
  count: number;
}

interface Sample {
  labels: Record<string, string | number>;
  sharedLabels?: Labels;
  value: number;
  metricName?: string;
  exemplar?: null;
}

const REQUESTS = { name: 'lnk_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status' };
const LATENCY = { name: 'lnk_http_request_duration_seconds', help: 'Time to answer HTTP requests, by method, route pattern and status' };
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * HTTP requests by method, route pattern and status: their count (a counter) and their latency (a
 * histogram), exposed in the app's registry under the names, labels and values prom-client's Counter and
 * Histogram gave them, sample for sample.
 *
 * Counted here rather than through prom-client's Counter and Histogram: on every observation those take
 * the labels apart again (a labels object, their validation, a hash string of all three, a map lookup),
 * twice, even through the children labels() returns. Here a request finds its series by one string key
 * and adds to plain numbers; the samples are made when the registry is read (a scrape).
 */
export class RequestMetrics {
  private readonly series = new Map<string, Series>();
  /**
   * The same series by route, method and status: the request's own strings (the route pattern is one
   * string per route, its hash kept) instead of a key string made, and hashed, for every request.
   */
  private readonly index = new Map<string, Map<string, Map<number, Series>>>();

  constructor(registry: Registry) {
    // The registry serialises any metric by what its get() (or getForPromString()) answers: name, help,
    // type and samples. These two answer the samples prom-client's own classes would.
    registry.registerMetric(this.metric('counter', REQUESTS, () => this.counterSamples()));
    registry.registerMetric(this.metric('histogram', LATENCY, () => this.histogramSamples()));
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    let series = this.index.get(route)?.get(method)?.get(status);
    if (!series) series = this.seriesOf(method, route, status);
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    series.count += 1;
    series.sum += seconds;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]) {
        series.inBucket[i] += 1;
        break;
      }
    }
  }

  private seriesOf(method: string, route: string, status: number): Series {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, inBucket: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    let byMethod = this.index.get(route);
    if (!byMethod) this.index.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    byStatus.set(status, series);
    return series;
  }

  private counterSamples(): Sample[] {
    return [...this.series.values()].map((series) => ({ value: series.count, labels: series.labels }));
  }

  /** prom-client's order: each series' buckets (cumulative, `le` first), +Inf, then its _sum and _count. */
  private histogramSamples(): Sample[] {
    const samples: Sample[] = [];
    for (const series of this.series.values()) {
      let below = 0;
      LATENCY_BUCKETS.forEach((bound, i) => {
        below += series.inBucket[i];
        samples.push({
          labels: { le: bound },
          sharedLabels: series.labels,
          value: below,
          metricName: `${LATENCY.name}_bucket`,
          exemplar: null,
        });
      });
      samples.push(
        { labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: `${LATENCY.name}_bucket`, exemplar: null },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${LATENCY.name}_sum` },
        { labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${LATENCY.name}_count` },
      );
    }
    return samples;
  }

  private metric(type: 'counter' | 'histogram', about: { name: string; help: string }, samples: () => Sample[]): Metric {
    const describe = (values: Sample[]) => ({ name: about.name, help: about.help, type, values, aggregator: 'sum' as const });
    const metric = {
      ...about,
      type,
      aggregator: 'sum',
      // As the registry's JSON (and cluster aggregation) reads it: each sample's labels in one object.
      get: async () =>
        describe(samples().map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }))),
      getForPromString: async () => describe(samples()),
      reset: () => {
        this.series.clear();
        this.index.clear();
      },
    };
    return metric as unknown as Metric;
  }
}
