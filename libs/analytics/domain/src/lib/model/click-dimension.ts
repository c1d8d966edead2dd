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
 * Most distinct values one (UTC day, link) gets in an open dimension. Visitors choose their Referer, so
 * without a bound anyone could add a row per request; visits with a further value are counted under
 * `(other)`, so every dimension's total stays the link's visits.
 */
export const MAX_DIMENSION_VALUES_PER_LINK_DAY = 100;
/**
 * The dimensions whose values visitors choose (any host name in a Referer). The others take their values
 * from closed lists (the ClickDimensions port's contract: ISO country codes, three device types, the
 * parser's known browser and OS families, two triggers), so they are bounded without a count.
 */
export const OPEN_DIMENSIONS: ReadonlySet<ClickDimension> = new Set<ClickDimension>(['referrer']);

/** Whether a value takes one of its (day, link, dimension)'s bounded slots: an open dimension's, other than its fixed values. */
export function isBoundedValue(dimension: ClickDimension, value: string): boolean {
  return OPEN_DIMENSIONS.has(dimension) && value !== DIRECT_REFERRER && value !== UNKNOWN_VALUE && value !== OTHER_VALUE;
}
/** Longest value kept (a host name's limit). */
export const MAX_DIMENSION_VALUE_LENGTH = 253;

/**
 * What a visit's raw request data comes to: a value per dimension besides the trigger. Only `referrer` is
 * open; `country`, `device`, `browser` and `os` come from closed lists or are `(unknown)`.
 */
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
