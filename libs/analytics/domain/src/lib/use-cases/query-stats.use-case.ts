import { checkEach, Page, PageRequest, ValidationError } from '@lnk/shared/kernel';
import { StatsRecord, StatsRepository } from '../ports/stats.repository';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const MAX_STATS_DAYS = 366;
/** Rows read at a time for the whole range: about 300 KB of JSON, whatever the range holds. */
export const STATS_BATCH_SIZE = 1_000;

export interface StatsParams {
  startDate?: string;
  endDate?: string;
  q?: string;
  /** Paging (spec section 8): with either, one page; with neither, every row of the range. */
  start?: number;
  limit?: number;
}

/** A page of the rows, or all of them as batches read one after the other as the caller consumes them. */
export type StatsAnswer = { page: Page<StatsRecord> } | { all: AsyncIterable<StatsRecord[]> };

function checkDate(value: unknown, field: string): string {
  if (value === undefined) throw ValidationError.field(field, `${field} is required`);
  if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    throw ValidationError.field(field, `${field} must be a date as YYYY-MM-DD`);
  }
  return value;
}

/** Spec 4.8: the caller's daily rows between two dates (inclusive), at most a year apart. */
export class QueryStatsUseCase {
  constructor(private readonly stats: StatsRepository) {}

  async execute(ownerId: string, params: StatsParams): Promise<StatsAnswer> {
    const paged = params.start !== undefined || params.limit !== undefined;
    const [startDate, endDate, page] = checkEach(
      () => checkDate(params.startDate, 'startDate'),
      () => checkDate(params.endDate, 'endDate'),
      () => (paged ? PageRequest.of(params.start, params.limit) : null),
    );
    const days = (Date.parse(endDate) - Date.parse(startDate)) / 86_400_000;
    if (days < 0) throw ValidationError.field('endDate', 'endDate must not be before startDate');
    if (days + 1 > MAX_STATS_DAYS) throw ValidationError.field('endDate', `the range may span at most ${MAX_STATS_DAYS} days`);
    const query = { ownerId, startDate, endDate, q: params.q?.trim() || undefined };
    return page ? { page: await this.stats.page(query, page) } : { all: this.stats.batches(query, STATS_BATCH_SIZE) };
  }
}
