import { ClickDimension } from '../model/click-dimension';

/** Which of an owner's statistics a question is about: a period (inclusive), and optionally some links or a domain. */
export interface StatsFilter {
  ownerId: string;
  startDate: string;
  endDate: string;
  /** Only these links (a link asked for, or a tag's links); absent: all of the owner's. */
  linkIds?: string[];
  domainId?: string;
}

export type StatsInterval = 'day' | 'week' | 'month';
export const STATS_INTERVALS: readonly StatsInterval[] = ['day', 'week', 'month'];

export interface ValueVisits {
  value: string;
  visits: number;
}

export interface IntervalVisits {
  /** The first day of the interval (a week starts on Monday), as YYYY-MM-DD. */
  date: string;
  visits: number;
}

export interface LinkVisits {
  linkId: string;
  /** As of the link's latest counted visit in the period. */
  linkName: string;
  domainId: string | null;
  domainName: string;
  visits: number;
}

/** Reads of the rollups: breakdowns, time series, top links; never raw events. */
export abstract class StatsInsightRepository {
  /** The dimension's values by visits, most first (then by value), at most `limit`. */
  abstract breakdown(filter: StatsFilter, dimension: ClickDimension, limit: number): Promise<ValueVisits[]>;
  /** Visits per interval of the period, every interval present (0 when none), oldest first. */
  abstract timeSeries(filter: StatsFilter, interval: StatsInterval): Promise<IntervalVisits[]>;
  /** The links with the most visits in the period, most first, at most `limit`. */
  abstract topLinks(filter: StatsFilter, limit: number): Promise<LinkVisits[]>;
}
