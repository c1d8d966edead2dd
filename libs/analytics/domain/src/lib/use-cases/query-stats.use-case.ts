import { checkEach, Page, PageRequest } from '@lnk/shared/kernel';
import { checkStatsPeriod } from '../model/stats-period';
import { StatsRecord, StatsRepository } from '../ports/stats.repository';

export { MAX_STATS_DAYS } from '../model/stats-period';
/** Rows read at a time for the whole range: about 300 KB of JSON, whatever the range holds. */
export const STATS_BATCH_SIZE = 1_000;

export interface StatsParams {
  startDate?: string;
  endDate?: string;
  q?: string;
  /** Paging (spec section 8): with either, one page; with neither, every row of the range. */
  start?: number;
  limit?: number;
  /** A page already made (a cursor's, opened by the HTTP layer): it wins over start and limit. */
  page?: PageRequest;
}

/** A page of the rows, or all of them as batches read one after the other as the caller consumes them. */
export type StatsAnswer = { page: Page<StatsRecord> } | { all: AsyncIterable<StatsRecord[]> };

/** Spec 4.8: the caller's daily rows between two dates (inclusive), at most a year apart. */
export class QueryStatsUseCase {
  constructor(private readonly stats: StatsRepository) {}

  async execute(ownerId: string, params: StatsParams): Promise<StatsAnswer> {
    const paged = params.page !== undefined || params.start !== undefined || params.limit !== undefined;
    const [{ startDate, endDate }, page] = checkEach(
      () => checkStatsPeriod(params),
      () => (paged ? (params.page ?? PageRequest.of(params.start, params.limit)) : null),
    );
    const query = { ownerId, startDate, endDate, q: params.q?.trim() || undefined };
    return page ? { page: await this.stats.page(query, page) } : { all: this.stats.batches(query, STATS_BATCH_SIZE) };
  }
}
