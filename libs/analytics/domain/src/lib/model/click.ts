/** Counts of one daily rollup row: (UTC date, link, UTM values). */
export interface ClickCounts {
  date: string;
  linkId: string;
  ownerId: string;
  domainId: string | null;
  linkName: string;
  domainName: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  visits: number;
  passwordPassed: number;
  passwordFailed: number;
}

/** Longest UTM value kept (in characters); longer ones are cut. */
export const MAX_UTM_LENGTH = 100;
/**
 * Most distinct (source, medium, campaign) combinations one link gets per UTC day. The UTM values come
 * from anonymous visitors, so without a bound anyone could add a row per request; clicks with a further
 * combination are counted under `(other)` for all three values, so totals stay exact.
 */
export const MAX_UTM_COMBINATIONS_PER_LINK_DAY = 100;
/** The UTM value of the row that takes a link's clicks beyond its daily combinations. */
export const OTHER_UTM = '(other)';

// Control characters (C0, DEL, C1), and invisible format characters (zero-width, bidi overrides).
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;

/**
 * A UTM value as it is stored: runs of white space made one space, control and invisible characters
 * removed, trimmed, lower-cased (so `Newsletter` and `newsletter` are one campaign, and case cannot be
 * used to multiply rows), at most MAX_UTM_LENGTH characters (never splitting a character).
 */
/** Already normal: lower-case letters, digits and a few marks, no space, at most MAX_UTM_LENGTH long. */
const PLAIN_UTM = new RegExp(`^[a-z0-9_.~+-]{1,${MAX_UTM_LENGTH}}$`);

export function normaliseUtm(value: string): string {
  // Most clicks carry no UTM value, or a plain one that is already what is stored.
  if (value === '' || PLAIN_UTM.test(value)) return value;
  const clean = value.replace(/\s+/gu, ' ').replace(INVISIBLE, '').trim().toLowerCase();
  const chars = Array.from(clean);
  return chars.length > MAX_UTM_LENGTH ? chars.slice(0, MAX_UTM_LENGTH).join('').trimEnd() : clean;
}

/** Clicks without any UTM value: the link's plain traffic, which no visitor's choice can multiply. */
export function hasNoUtm(row: Pick<ClickCounts, 'utmSource' | 'utmMedium' | 'utmCampaign'>): boolean {
  return row.utmSource === '' && row.utmMedium === '' && row.utmCampaign === '';
}

/** Rows the UTM bounds do not count: `(other)` itself, and clicks without UTM values (they always keep their row). */
export function isOutsideUtmBounds(row: Pick<ClickCounts, 'utmSource' | 'utmMedium' | 'utmCampaign'>): boolean {
  return hasNoUtm(row) || isOtherUtm(row);
}

export function isOtherUtm(row: Pick<ClickCounts, 'utmSource' | 'utmMedium' | 'utmCampaign'>): boolean {
  return row.utmSource === OTHER_UTM && row.utmMedium === OTHER_UTM && row.utmCampaign === OTHER_UTM;
}

export function rollupKey(e: Pick<ClickCounts, 'date' | 'linkId' | 'utmSource' | 'utmMedium' | 'utmCampaign'>): string {
  return `${e.date}\u0000${e.linkId}\u0000${e.utmSource}\u0000${e.utmMedium}\u0000${e.utmCampaign}`;
}
