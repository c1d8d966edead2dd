import { type LinkListItem, listLinks } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import type { LinkListView } from './list-view';
import { LINKS_PAGE_SIZE, nextPageParam, type PageParam } from './paging';

export { FIRST_PAGE } from './paging';

/** What the table filters by: a search text and the view (expired, tag, favourites, order) the API's list takes. */
export interface LinkFilter extends LinkListView {
  q: string;
}

export interface LinksPage {
  links: LinkListItem[];
  total: number;
  next: PageParam | undefined;
}

/**
 * One page of the account's links, and where the next one starts (undefined at the end). The table
 * scrolls through pages in order and never jumps, so it walks the list by cursor: the first page without
 * one, each next with the `meta.nextCursor` of the page before and the same filter (a cursor is bound to
 * its query; the API refuses it with another).
 */
export async function fetchLinksPage(filter: LinkFilter, from: PageParam, signal?: AbortSignal): Promise<LinksPage> {
  const query = {
    limit: LINKS_PAGE_SIZE,
    ...(from !== null ? { cursor: from } : {}),
    ...(filter.q.trim() ? { q: filter.q.trim() } : {}),
    ...(filter.expired !== 'all' ? { expired: filter.expired } : {}),
    ...(filter.tag ? { tag: filter.tag } : {}),
    ...(filter.favorite ? { favorite: 'true' as const } : {}),
    ...(filter.sort !== 'newest' ? { sort: filter.sort } : {}),
  };
  const page = await answer(listLinks({ client, query, signal }));
  return { links: page.data, total: page.meta.total, next: nextPageParam(page.meta.nextCursor, page.data.length) };
}
