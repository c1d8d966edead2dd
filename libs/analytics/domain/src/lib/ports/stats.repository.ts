import { ClickCounts } from '../model/click';

export interface StatsRecord extends ClickCounts {
  id: string;
}

export interface StatsQuery {
  ownerId: string;
  startDate: string;
  endDate: string;
  q?: string;
}

/** Daily rollups of clicks: written in batches, read by date range; a query never scans raw events. */
export abstract class StatsRepository {
  /**
   * Adds the counts to their rows, creating them. A (link, date) holds at most `maxUtmCombinations`
   * distinct UTM combinations besides its `(other)` row, counting the rows already stored: counts of a
   * further new combination are added to the `(other)` row instead (OTHER_UTM for all three values).
   */
  abstract addCounts(counts: ClickCounts[], maxUtmCombinations: number): Promise<void>;
  abstract query(query: StatsQuery): Promise<StatsRecord[]>;
  abstract deleteAllOfOwner(ownerId: string): Promise<void>;
}
