/** The orders the API's links list takes (`sort`). */
export const LINK_SORTS = [
  { value: 'newest', label: 'Newest first' },
  { value: 'oldest', label: 'Oldest first' },
  { value: 'title', label: 'Title, A to Z' },
] as const;
export type LinkSortValue = (typeof LINK_SORTS)[number]['value'];

/** How the table narrows and orders the links besides the search: kept in the address, so a reload keeps it. */
export interface LinkListView {
  expired: 'all' | 'true' | 'false';
  /** A tag id, or '' for every link. */
  tag: string;
  sort: LinkSortValue;
  favorite: boolean;
}

export const DEFAULT_VIEW: LinkListView = { expired: 'all', tag: '', sort: 'newest', favorite: false };

const TAG_ID = /^[0-9a-f]{24}$/;
const isSort = (value: string | null): value is LinkSortValue => LINK_SORTS.some((s) => s.value === value);

/**
 * The view an address's query names (`?sort=title&tag=<id>&favorite=true&show=expired`); what is missing
 * or not a value the API takes is the default, so an edited address never shows an error page.
 */
export function viewOfSearch(search: string): LinkListView {
  const params = new URLSearchParams(search);
  const show = params.get('show');
  const tag = params.get('tag') ?? '';
  const sort = params.get('sort');
  return {
    expired: show === 'live' ? 'false' : show === 'expired' ? 'true' : 'all',
    tag: TAG_ID.test(tag) ? tag : '',
    sort: isSort(sort) ? sort : 'newest',
    favorite: params.get('favorite') === 'true',
  };
}

/** The address query of a view (defaults left out: the plain list has none), with its leading `?`. */
export function searchOfView(view: LinkListView): string {
  const params = new URLSearchParams();
  if (view.expired !== 'all') params.set('show', view.expired === 'true' ? 'expired' : 'live');
  if (view.tag) params.set('tag', view.tag);
  if (view.sort !== 'newest') params.set('sort', view.sort);
  if (view.favorite) params.set('favorite', 'true');
  const query = params.toString();
  return query ? `?${query}` : '';
}
