import { NotFoundError, ValidationError } from '@lnk/shared/kernel';
import { IntervalVisits, LinkVisits, StatsFilter, StatsInsightRepository, ValueVisits } from '../ports/stats-insight.repository';
import { StatsLinks } from '../ports/stats-links.port';
import { StatsFilters } from '../services/stats-filters';
import { BreakdownStatsUseCase } from './breakdown-stats.use-case';
import { TimeSeriesStatsUseCase } from './time-series-stats.use-case';
import { TopLinksStatsUseCase } from './top-links-stats.use-case';

class OwnedLinks extends StatsLinks {
  async isOwnersLink(ownerId: string, linkId: string) {
    return ownerId === 'ada' && ['l1', 'l2'].includes(linkId);
  }
  async linksTagged(ownerId: string, tagId: string) {
    return ownerId === 'ada' && tagId === 't1' ? ['l2', 'l3'] : null;
  }
}

/** Records what it was asked, answers nothing. */
class AskedInsights extends StatsInsightRepository {
  asked: unknown[][] = [];
  async breakdown(filter: StatsFilter, dimension: string, limit: number): Promise<ValueVisits[]> {
    this.asked.push([filter, dimension, limit]);
    return [];
  }
  async timeSeries(filter: StatsFilter, interval: string): Promise<IntervalVisits[]> {
    this.asked.push([filter, interval]);
    return [];
  }
  async topLinks(filter: StatsFilter, limit: number): Promise<LinkVisits[]> {
    this.asked.push([filter, limit]);
    return [];
  }
}

describe('statistics views (breakdown, time series, top links)', () => {
  const period = { startDate: '2026-01-01', endDate: '2026-01-31' };
  let insights: AskedInsights;
  let breakdown: BreakdownStatsUseCase;
  let series: TimeSeriesStatsUseCase;
  let top: TopLinksStatsUseCase;

  beforeEach(() => {
    insights = new AskedInsights();
    const filters = new StatsFilters(new OwnedLinks());
    breakdown = new BreakdownStatsUseCase(filters, insights);
    series = new TimeSeriesStatsUseCase(filters, insights);
    top = new TopLinksStatsUseCase(filters, insights);
  });

  it(
    'asks for the caller’s rows of the period, narrowed by link, tag ' + '(both: the link if tagged) and domain, limit 10 by default',
    async () => {
      await breakdown.execute('ada', 'country', { ...period, domainId: 'd1' });
      await series.execute('ada', { ...period, tagId: 't1', interval: 'week' });
      await top.execute('ada', { ...period, linkId: 'l2', tagId: 't1', limit: 5 });
      expect(insights.asked).toEqual([
        [{ ownerId: 'ada', ...period, domainId: 'd1' }, 'country', 10],
        [{ ownerId: 'ada', ...period, linkIds: ['l2', 'l3'] }, 'week'],
        [{ ownerId: 'ada', ...period, linkIds: ['l2'] }, 5],
      ]);
    },
  );

  it('answers nothing without asking when a link does not carry the tag', async () => {
    expect(await breakdown.execute('ada', 'referrer', { ...period, linkId: 'l1', tagId: 't1' })).toEqual([]);
    expect(insights.asked).toEqual([]);
  });

  it('answers NOT_FOUND for another account’s link or tag', async () => {
    await expect(breakdown.execute('bob', 'referrer', { ...period, linkId: 'l1' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(top.execute('bob', { ...period, tagId: 't1' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it.each([
    [{ startDate: '2026-01-01' }, 'endDate'],
    [{ startDate: '2026-02-01', endDate: '2026-01-01' }, 'endDate'],
    [{ startDate: '2025-01-01', endDate: '2026-01-31' }, 'endDate'],
    [{ ...period, limit: 101 }, 'limit'],
    [{ ...period, limit: 0 }, 'limit'],
  ])('refuses %p naming %s, as GET /user/stats does for the period', async (params, field) => {
    const error = await breakdown.execute('ada', 'device', params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors.map((e) => e.name)).toEqual([field]);
  });

  it('refuses an unknown dimension or interval', async () => {
    await expect(breakdown.execute('ada', 'planet', period)).rejects.toBeInstanceOf(ValidationError);
    await expect(series.execute('ada', { ...period, interval: 'year' })).rejects.toBeInstanceOf(ValidationError);
  });
});
