import { type LinkListItem, listLinks } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { LINKS_PAGE_SIZE, nextPageParam, type PageParam } from './paging';

export { FIRST_PAGE } from './paging';

/** What the table filters by; the API's list takes a search text and the expired flag. */
export interface LinkFilter {
  q: string;
  expired: 'all' | 'true' | 'false';
}

export interface LinksPage {
  links: LinkListItem[];
  total: number;
  next: PageParam | undefined;
}

/**
 * One page of the account's links, and where the next one starts (undefined at the end). The table
 * scrolls through pages in order and never jumps, so a cursor can replace the offset here alone.
 */
export async function fetchLinksPage(filter: LinkFilter, from: PageParam, signal?: AbortSignal): Promise<LinksPage> {
  const query = { start: from, limit: LINKS_PAGE_SIZE, ...(filter.q.trim() ? { q: filter.q.trim() } : {}), ...(filter.expired !== 'all' ? { expired: filter.expired } : {}) };
  const page = await answer(listLinks({ client, query, signal }));
  return { links: page.data, total: page.meta.total, next: nextPageParam(from, page.data.length, page.meta.total) };
}
