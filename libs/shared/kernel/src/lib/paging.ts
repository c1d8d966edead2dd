import { ValidationError } from './errors';

/**
 * Where a keyset page starts: the sort values of the row the page comes after, in the list's order, the
 * row's id last (so two rows never share a position). Only the list's adapter reads its parts.
 */
export type Keyset = readonly string[];

/**
 * A page request: `start` items skipped, `limit` items at most (spec section 8); or, from a cursor, the
 * items after the position `after`, where `start` only counts what the walk answered before (meta.start).
 */
export class PageRequest {
  static readonly MAX_LIMIT = 100;
  static readonly DEFAULT_LIMIT = 10;
  /** Far past any list; beyond it an offset is no number the database takes (1e21 reached it as a 500). */
  static readonly MAX_START = 1_000_000_000;

  private constructor(
    readonly start: number,
    readonly limit: number,
    readonly after: Keyset | null = null,
  ) {}

  static of(start = 0, limit: number = PageRequest.DEFAULT_LIMIT): PageRequest {
    const errors = [];
    if (!Number.isInteger(start) || start < 0 || start > PageRequest.MAX_START)
      errors.push({ name: 'start', error: `start must be an integer from 0 to ${PageRequest.MAX_START}` });
    if (!Number.isInteger(limit) || limit < 1 || limit > PageRequest.MAX_LIMIT) {
      errors.push({ name: 'limit', error: `limit must be an integer from 1 to ${PageRequest.MAX_LIMIT}` });
    }
    if (errors.length) throw new ValidationError(errors);
    return new PageRequest(start, limit);
  }

  /** The page after the position `after` (a cursor's), `counted` items having been answered before it. */
  static after(after: Keyset, counted: number, limit: number = PageRequest.DEFAULT_LIMIT): PageRequest {
    const request = PageRequest.of(counted, limit);
    if (!after.length) throw ValidationError.field('cursor', 'cursor holds no position');
    return new PageRequest(request.start, request.limit, after);
  }

  /** Rows an adapter reads: on a keyset page one more than the page, which tells whether another follows. */
  get rows(): number {
    return this.after ? this.limit + 1 : this.limit;
  }

  /** Rows an adapter skips: none on a keyset page (the position is in its WHERE clause). */
  get offset(): number {
    return this.after ? 0 : this.start;
  }
}

/**
 * One page of results with the total count, so a client can compute further pages; `next`, the position of
 * its last item when another page follows (null on the last page).
 */
export interface Page<T> {
  items: T[];
  total: number;
  start: number;
  limit: number;
  next?: Keyset | null;
}

const idKey = (item: { id: string }): Keyset => [item.id];

/**
 * A page from the rows an adapter read for `request` (`request.rows` at most; on a keyset page the one
 * beyond the limit only says another page follows). `keyOf`: an item's position, its sort values then
 * its id (the id alone for a list ordered by id).
 */
export function pageOf<T extends { id: string }>(rows: T[], total: number, request: PageRequest): Page<T>;
export function pageOf<T>(rows: T[], total: number, request: PageRequest, keyOf: (item: T) => Keyset): Page<T>;
export function pageOf<T>(rows: T[], total: number, request: PageRequest, keyOf: (item: T) => Keyset = idKey as never): Page<T> {
  const items = rows.length > request.limit ? rows.slice(0, request.limit) : rows;
  const more = request.after ? rows.length > request.limit : request.start + items.length < total;
  const next = more && items.length ? keyOf(items[items.length - 1]) : null;
  return { items, total, start: request.start, limit: request.limit, next };
}

/**
 * A page of a list held in memory (the fakes), newest first by id as the adapters order it: skipping
 * `start` items, or keeping those after the position's id.
 */
export function pageOfNewestFirst<T extends { id: string }>(all: readonly T[], request: PageRequest): Page<T>;
export function pageOfNewestFirst<T>(all: readonly T[], request: PageRequest, idOf: (item: T) => string): Page<T>;
export function pageOfNewestFirst<T>(
  all: readonly T[],
  request: PageRequest,
  idOf: (item: T) => string = (i) => (i as { id: string }).id,
): Page<T> {
  const sorted = [...all].sort((a, b) => (idOf(a) < idOf(b) ? 1 : idOf(a) > idOf(b) ? -1 : 0));
  const after = request.after?.[request.after.length - 1];
  const from = after === undefined ? sorted.slice(request.start) : sorted.filter((i) => idOf(i) < after);
  return pageOf(from.slice(0, request.rows), sorted.length, request, (i) => [idOf(i)]);
}
