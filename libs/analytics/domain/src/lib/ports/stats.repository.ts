import { ClickCounts } from '../model/click';
import { DimensionCounts } from '../model/click-dimension';

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
   *
   * `dimensions`, in the same transaction: visits per (date, link, dimension, value), added to their
   * rows. A (date, link, dimension) holds at most `maxDimensionValues` values besides `(other)`, counting
   * the rows already stored; the visits of a further new value are added to its `(other)` row.
   */
  abstract addCounts(counts: ClickCounts[], maxUtmCombinations: number, dimensions?: DimensionCounts[], maxDimensionValues?: number): Promise<void>;
  abstract query(query: StatsQuery): Promise<StatsRecord[]>;
  abstract deleteAllOfOwner(ownerId: string): Promise<void>;
}
