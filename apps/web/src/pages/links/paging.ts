/** Links asked for at once: the API's largest page (spec 8: `limit` at most 100). */
export const LINKS_PAGE_SIZE = 100;

/**
 * Where the next page starts: the API's cursor (`meta.nextCursor` of the page before), or null for the
 * first page. A cursor's page costs the API the same at any depth, where an offset's grows with it, and a
 * walk by cursor never shows a link twice when links are created or deleted while the table scrolls.
 */
export type PageParam = string | null;

export const FIRST_PAGE: PageParam = null;

/**
 * The cursor of the page after one of `count` links, or undefined when none are left: at the list's end
 * (no `nextCursor`), and after an empty page, so a list that answers nothing more ends the scrolling
 * instead of asking forever.
 */
export function nextPageParam(nextCursor: string | null | undefined, count: number): PageParam | undefined {
  return count > 0 && nextCursor ? nextCursor : undefined;
}
