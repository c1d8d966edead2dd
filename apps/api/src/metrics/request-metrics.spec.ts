import { Counter, Histogram, Registry } from 'prom-client';
import { LATENCY_BUCKETS, RequestMetrics } from './request-metrics';

/** What the API exposed through prom-client's own Counter and Histogram. */
function promClientMetrics(registry: Registry) {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'lnk_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'lnk_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return (method: string, route: string, status: number, seconds: number) => {
    const labels = { method, route, status: String(status) };
    requests.labels(labels).inc();
    latency.labels(labels).observe(seconds);
  };
}

describe('RequestMetrics', () => {
  it("exposes the samples prom-client's Counter and Histogram exposed, as text and as JSON", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const observeTheirs = promClientMetrics(theirs);
    const metrics = new RequestMetrics(ours);
    const routes = [
      ['GET', '/user/me'],
      ['GET', '/health/live'],
      ['POST', '/user/link'],
      ['GET', 'unmatched'],
    ] as const;
    // Latencies on, between and past the bounds, including the very slow and the instant.
    const latencies = [0, 0.0004, 0.001, 0.0017, 0.0025, 0.003, 0.049, 0.05, 0.7, 2.5, 4.99, 5, 7.3, 120];
    let n = 0;
    for (const seconds of latencies) {
      for (const [method, route] of routes) {
        const status = [200, 401, 404, 429][n++ % 4];
        observeTheirs(method, route, status, seconds);
        metrics.observe(method, route, status, seconds);
      }
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    expect(await ours.metrics()).toContain(
      'lnk_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/user/me",status="200"}',
    );
  });

  it('exposes no series before the first request, and none after a reset', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const observeTheirs = promClientMetrics(theirs);
    const metrics = new RequestMetrics(ours);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    observeTheirs('GET', '/x', 200, 0.01);
    metrics.observe('GET', '/x', 200, 0.01);
    theirs.resetMetrics();
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  // Series are found through an index by route, method and status (issue 15): a reset must empty it too,
  // or a series observed again after it counts into one the exposition no longer holds.
  it('counts a series observed after a reset from zero, as prom-client does', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const observeTheirs = promClientMetrics(theirs);
    const metrics = new RequestMetrics(ours);
    for (const registry of ['before', 'after']) {
      observeTheirs('GET', '/x', 200, 0.01);
      metrics.observe('GET', '/x', 200, 0.01);
      if (registry === 'before') {
        theirs.resetMetrics();
        ours.resetMetrics();
      }
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('lnk_http_requests_total{method="GET",route="/x",status="200"} 1');
  });
});
