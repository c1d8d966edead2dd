/** Links asked for at once: the API's largest page (spec 8: `limit` at most 100). */
export const LINKS_PAGE_SIZE = 100;

/**
 * Where the next page starts: an offset today. Once the list answers a cursor, this type, FIRST_PAGE and
 * nextPageParam (with fetchLinksPage) are all that change: the table only ever asks for "the next page".
 */
export type PageParam = number;

export const FIRST_PAGE: PageParam = 0;

/** The offset after a page of `count` links read from `from`, or undefined when none are left. */
export function nextPageParam(from: PageParam, count: number, total: number): PageParam | undefined {
  const next = from + count;
  return count > 0 && next < total ? next : undefined;
}
