import { ValidationError } from '@lnk/shared/kernel';
import { IntervalVisits, STATS_INTERVALS, StatsInsightRepository, StatsInterval } from '../ports/stats-insight.repository';
import { StatsFilterParams, StatsFilters } from '../services/stats-filters';

/** The caller's visits per day, week or month of the period, every interval present. */
export class TimeSeriesStatsUseCase {
  constructor(
    private readonly filters: StatsFilters,
    private readonly insights: StatsInsightRepository,
  ) {}

  async execute(ownerId: string, params: StatsFilterParams & { interval?: string }): Promise<IntervalVisits[]> {
    const interval = params.interval ?? 'day';
    if (!(STATS_INTERVALS as readonly string[]).includes(interval))
      throw ValidationError.field('interval', `interval must be one of ${STATS_INTERVALS.join(', ')}`);
    const filter = await this.filters.resolve(ownerId, params);
    return this.insights.timeSeries(filter, interval as StatsInterval);
  }
}
