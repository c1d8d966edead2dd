import { LinkVisits, StatsInsightRepository } from '../ports/stats-insight.repository';
import { checkStatsLimit, StatsFilterParams, StatsFilters } from '../services/stats-filters';

/** The caller's links with the most visits in the period. */
export class TopLinksStatsUseCase {
  constructor(
    private readonly filters: StatsFilters,
    private readonly insights: StatsInsightRepository,
  ) {}

  async execute(ownerId: string, params: StatsFilterParams & { limit?: number }): Promise<LinkVisits[]> {
    const limit = checkStatsLimit(params.limit);
    const filter = await this.filters.resolve(ownerId, params);
    if (filter.linkIds?.length === 0) return [];
    return this.insights.topLinks(filter, limit);
  }
}
