import { CONTEXTS, type Contexts } from '@lnk/composition';
import { createAccount } from './support/identity';
import { TestApp, useTestApp } from './support/test-app';
import { asBrowser } from './support/visitor';

/** The value of one sample line of a Prometheus text exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics (Prometheus)', () => {
  let t: TestApp;
  useTestApp((app) => (t = app));

  it('counts requests by route and status with latency histograms, redirects, clicks and the pool', async () => {
    const ada = await createAccount(t);
    await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://dest.example/', slug: 'm1' } });
    for (let i = 0; i < 3; i++) await t.request('GET', '/user/me');
    // As a browser: Node's fetch names itself "node", a script, whose visits are not counted.
    await t.request('GET', '/m1', { headers: asBrowser() });
    await t.request('GET', '/m1', { headers: asBrowser() });
    await t.request('GET', '/nope-nope');

    const before = await t.request('GET', '/metrics');
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = before.text;
    expect(sample(text, 'lnk_http_requests_total{method="GET",route="/user/me",status="401"}')).toBe(3);
    expect(sample(text, 'lnk_http_request_duration_seconds_count{method="GET",route="/user/me",status="401"}')).toBe(3);
    expect(text).toContain('lnk_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/user/me",status="401"}');
    expect(sample(text, 'lnk_redirects_total{outcome="redirect"}')).toBe(2);
    expect(sample(text, 'lnk_redirects_total{outcome="not_found"}')).toBe(1);
    expect(sample(text, 'lnk_clicks_buffered_rows')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('lnk_process_cpu_user_seconds_total');
    if (t.config.database.kind === 'postgres') expect(sample(text, 'lnk_db_pool_connections{state="total"}')).toBeGreaterThan(0);

    await t.app.get<Contexts>(CONTEXTS).analytics.clicks.flush();
    const after = await t.request('GET', '/metrics');
    expect(sample(after.text, 'lnk_clicks_written_total')).toBeGreaterThan(0);
    expect(sample(after.text, 'lnk_clicks_buffered_rows')).toBe(0);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { env: { METRICS_TOKEN: 'scrape-secret-123' } });

  it('answers only the bearer of the metrics token', async () => {
    expect((await t.request('GET', '/metrics')).status).toBe(401);
    expect((await t.request('GET', '/metrics', { token: 'scrape-secret-12' })).status).toBe(401);
    const allowed = await t.request('GET', '/metrics', { token: 'scrape-secret-123' });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('lnk_http_requests_total');
  });
});

// An open /metrics shows every route's traffic to anyone: production starts only with a token (or METRICS_PUBLIC=true).
describe('GET /metrics in production (NODE_ENV=production)', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { env: { NODE_ENV: 'production', SECRET_KEY: 'e'.repeat(64), METRICS_TOKEN: 'scrape-secret-789' } });

  it('answers 401 without the metrics token', async () => {
    expect(t.config.production).toBe(true);
    expect((await t.request('GET', '/metrics')).status).toBe(401);
    expect((await t.request('GET', '/metrics', { token: 'scrape-secret-789' })).status).toBe(200);
  });
});
