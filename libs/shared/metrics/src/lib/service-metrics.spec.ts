import { ServiceMetrics } from './service-metrics';

const sample = async (metrics: ServiceMetrics, series: string) => {
  const line = (await metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
};

// Both apps report clicks and the pool through this class: what each watches is read at scrape time.
describe('ServiceMetrics', () => {
  it('reports clicks written and dropped, and the buffer and pool figures as they are when scraped', async () => {
    const metrics = new ServiceMetrics();
    let buffered = 3;
    metrics.watchClickBuffer(() => buffered);
    metrics.watchPool(() => ({ totalCount: 5, idleCount: 2, waitingCount: 1 }));
    metrics.written(7);
    metrics.written(1);
    metrics.dropped(2);
    expect(await sample(metrics, 'lnk_clicks_written_total')).toBe(8);
    expect(await sample(metrics, 'lnk_clicks_dropped_total')).toBe(2);
    expect(await sample(metrics, 'lnk_clicks_buffered_rows')).toBe(3);
    buffered = 0;
    expect(await sample(metrics, 'lnk_clicks_buffered_rows')).toBe(0);
    expect(await sample(metrics, 'lnk_db_pool_connections{state="total"}')).toBe(5);
    expect(await sample(metrics, 'lnk_db_pool_connections{state="waiting"}')).toBe(1);
  });

  it('leaves the pool series out where there is no pool (the embedded database)', async () => {
    const metrics = new ServiceMetrics();
    expect(await sample(metrics, 'lnk_db_pool_connections{state="total"}')).toBeUndefined();
    expect(await sample(metrics, 'lnk_clicks_buffered_rows')).toBe(0);
  });
});
