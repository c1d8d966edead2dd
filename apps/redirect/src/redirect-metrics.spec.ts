import { RedirectMetrics } from './redirect-metrics';

const series = async (metrics: RedirectMetrics, outcome: string) => {
  const line = (await metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`lnk_redirects_total{outcome="${outcome}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
};

describe('RedirectMetrics', () => {
  it('reports every counted request once per outcome, however often it is scraped (redirects counted twice or lost defended)', async () => {
    const metrics = new RedirectMetrics(() => null);
    for (let i = 0; i < 3; i++) metrics.count('redirect');
    metrics.count('not_found');
    expect(await series(metrics, 'redirect')).toBe(3);
    expect(await series(metrics, 'redirect')).toBe(3);
    metrics.count('redirect');
    expect(await series(metrics, 'redirect')).toBe(4);
    expect(await series(metrics, 'not_found')).toBe(1);
    expect(await series(metrics, 'error')).toBeUndefined();
  });
});
