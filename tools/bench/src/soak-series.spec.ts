import { growthOf, metricIn, plotSvg, sampleOf } from './soak-series';

const METRICS = `# HELP lnk_redirects_total Short-URL requests answered, by outcome
lnk_redirects_total{outcome="redirect"} 1200
lnk_redirects_total{outcome="not_found"} 30
lnk_redirects_total{outcome="error"} 0
lnk_http_requests_total{method="GET",route="/user/me",status="200"} 500
lnk_http_requests_total{method="POST",route="/user/link",status="503"} 2
lnk_clicks_written_total 1100
lnk_clicks_buffered_rows 40
lnk_db_pool_connections{state="total"} 10
lnk_db_pool_connections{state="idle"} 7
lnk_db_pool_connections{state="waiting"} 0
lnk_nodejs_eventloop_lag_p99_seconds 0.0123
lnk_nodejs_heap_size_used_bytes 52428800
lnk_nodejs_active_handles_total 14
`;

describe('soak series', () => {
  it('reads a metric by name and labels, summing the series that match (a wrong reading would hide a leak or a drift)', () => {
    expect(metricIn(METRICS, 'lnk_redirects_total', { outcome: 'redirect' })).toBe(1200);
    expect(metricIn(METRICS, 'lnk_redirects_total')).toBe(1230);
    expect(metricIn(METRICS, 'lnk_clicks_written_total')).toBe(1100);
    // A name that is a prefix of another is not that other metric.
    expect(metricIn(METRICS, 'lnk_clicks_written')).toBeNull();
    expect(metricIn(METRICS, 'lnk_missing_total')).toBeNull();
  });

  it('makes a sample: units converted, 5xx counted from API answers and redirect errors', () => {
    const sample = sampleOf(METRICS, 10, 120.5);
    expect(sample).toMatchObject({
      t: 10,
      rssMb: 120.5,
      heapUsedMb: 50,
      eventLoopP99Ms: 12.3,
      activeHandles: 14,
      pool: { total: 10, idle: 7, waiting: 0 },
      clickBufferRows: 40,
      redirects: 1200,
      clicksWritten: 1100,
      serverErrors: 2,
      answered: 1732,
    });
  });

  it('tells a flat series (noise after warm-up) from one that keeps growing', () => {
    const flat = Array.from({ length: 60 }, (_, i) => ({ t: i * 10, v: i < 6 ? 80 + i * 10 : 140 + (i % 3) }));
    const leak = Array.from({ length: 60 }, (_, i) => ({ t: i * 10, v: 140 + i * 2 }));
    expect(growthOf(flat, 60)).toMatchObject({ keepsGrowing: false });
    const growing = growthOf(leak, 60);
    expect(growing?.keepsGrowing).toBe(true);
    expect(growing?.slopePerHour).toBeCloseTo(720, 0);
    // Too few readings after warm-up: no verdict rather than a wrong one.
    expect(growthOf(leak.slice(0, 10), 60)).toBeNull();
  });

  it('draws each panel as a polyline, with the bar and the end of warm-up marked', () => {
    const svg = plotSvg(
      'soak <test>',
      [
        {
          title: 'Event-loop delay p99',
          unit: 'ms',
          limit: 50,
          lines: [
            {
              label: 'p99',
              color: '#2ca02c',
              points: [
                { t: 0, v: 3 },
                { t: 5, v: null },
                { t: 10, v: 4 },
              ],
            },
          ],
        },
      ],
      5,
    );
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('soak &lt;test&gt;');
    expect(svg.match(/<polyline [^>]*points="([^"]+)"/)?.[1].split(' ')).toHaveLength(2);
    expect(svg.match(/stroke-dasharray/g)).toHaveLength(2);
  });
});
