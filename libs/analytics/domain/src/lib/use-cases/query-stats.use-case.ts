import { checkStatsPeriod } from '../model/stats-period';
import { StatsRecord, StatsRepository } from '../ports/stats.repository';

/** Spec 4.8: the caller's daily rows between two dates (inclusive), at most a year apart. */
export class QueryStatsUseCase {
  constructor(private readonly stats: StatsRepository) {}

  async execute(ownerId: string, params: { startDate?: string; endDate?: string; q?: string }): Promise<StatsRecord[]> {
    const { startDate, endDate } = checkStatsPeriod(params);
    return this.stats.query({ ownerId, startDate, endDate, q: params.q?.trim() || undefined });
  }
}
