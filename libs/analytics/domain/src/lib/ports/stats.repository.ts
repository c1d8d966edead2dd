import { Keyset, Page, PageRequest } from '@lnk/shared/kernel';
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

/**
 * Daily rollups of clicks: written in batches, read by date range; a query never scans raw events.
 *
 * Reads answer the rows of a range in one order, paged or not: by day, then link name, UTM source,
 * medium and campaign, then the row's id (unique), so no two rows tie and pages are well defined.
 */
/** A row's position in the order of the reads: what a keyset page starts after. */
export const statsPosition = (r: StatsRecord): Keyset => [r.date, r.linkName, r.utmSource, r.utmMedium, r.utmCampaign, r.id];

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
  abstract addCounts(
    counts: ClickCounts[],
    maxUtmCombinations: number,
    dimensions?: DimensionCounts[],
    maxDimensionValues?: number,
  ): Promise<void>;
  /**
   * One page of the rows of the range, in that order, with the count of them all. An offset page: two
   * calls see the same order, so consecutive pages neither overlap nor skip while the rows stay put.
   * A keyset page (`page.after`, from statsPosition) holds the rows after that position in that order.
   */
  abstract page(query: StatsQuery, page: PageRequest): Promise<Page<StatsRecord>>;
  /**
   * Every row of the range in that order, a batch of at most `batchSize` at a time, each read only when
   * the caller asks for it: a year of a large account never sits in memory at once.
   */
  abstract batches(query: StatsQuery, batchSize: number): AsyncIterable<StatsRecord[]>;
  abstract deleteAllOfOwner(ownerId: string): Promise<void>;
}
