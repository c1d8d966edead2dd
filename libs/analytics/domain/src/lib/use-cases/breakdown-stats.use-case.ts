import { ValidationError } from '@lnk/shared/kernel';
import { CLICK_DIMENSIONS, ClickDimension } from '../model/click-dimension';
import { StatsInsightRepository, ValueVisits } from '../ports/stats-insight.repository';
import { checkStatsLimit, StatsFilterParams, StatsFilters } from '../services/stats-filters';

/** The caller's visits by one dimension's values (referrer host, country...), most first. */
export class BreakdownStatsUseCase {
  constructor(
    private readonly filters: StatsFilters,
    private readonly insights: StatsInsightRepository,
  ) {}

  async execute(ownerId: string, dimension: string, params: StatsFilterParams & { limit?: number }): Promise<ValueVisits[]> {
    if (!(CLICK_DIMENSIONS as readonly string[]).includes(dimension))
      throw ValidationError.field('dimension', `dimension must be one of ${CLICK_DIMENSIONS.join(', ')}`);
    const limit = checkStatsLimit(params.limit);
    const filter = await this.filters.resolve(ownerId, params);
    if (filter.linkIds?.length === 0) return [];
    return this.insights.breakdown(filter, dimension as ClickDimension, limit);
  }
}
