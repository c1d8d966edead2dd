/** The dimensions a counted visit is broken down by, each rolled up on its own per (UTC day, link). */
export const CLICK_DIMENSIONS = ['referrer', 'country', 'device', 'browser', 'os', 'trigger'] as const;
export type ClickDimension = (typeof CLICK_DIMENSIONS)[number];

/** A visit without a Referer. */
export const DIRECT_REFERRER = '(direct)';
/** A value that could not be derived: no country for the address, no family for the User-Agent. */
export const UNKNOWN_VALUE = '(unknown)';
/** The value that takes a (day, link, dimension)'s visits beyond its distinct values (as `(other)` does for UTM values). */
export const OTHER_VALUE = '(other)';
/**
 * Most distinct values one (UTC day, link, dimension) gets. Visitors control Referer and User-Agent, so
 * without a bound anyone could add a row per request; visits with a further value are counted under
 * `(other)`, so every dimension's total stays the link's visits. Countries (about 250 codes) could pass
 * the bound only for a link visited from most of the world in one day.
 */
export const MAX_DIMENSION_VALUES_PER_LINK_DAY = 100;
/** Longest value kept (a host name's limit). */
export const MAX_DIMENSION_VALUE_LENGTH = 253;

/** What a visit's raw request data comes to: a value per dimension besides the trigger. */
export interface VisitorTraits {
  /** The Referer's host name, lower-case, or `(direct)`. */
  referrer: string;
  /** ISO 3166-1 alpha-2, or `(unknown)`. */
  country: string;
  /** `desktop`, `mobile`, `tablet` or `(unknown)`. */
  device: string;
  browser: string;
  os: string;
}

/** Visits of one (UTC day, link) for one dimension value: the rows the dimension rollups are made of. */
export interface DimensionCounts {
  date: string;
  linkId: string;
  ownerId: string;
  domainId: string | null;
  dimension: ClickDimension;
  value: string;
  visits: number;
}
