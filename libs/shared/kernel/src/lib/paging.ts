import { ValidationError } from './errors';

/** A page request: `start` items skipped, `limit` items at most (spec section 8). */
export class PageRequest {
  static readonly MAX_LIMIT = 100;
  static readonly DEFAULT_LIMIT = 10;
  /** Far past any list; beyond it an offset is no number the database takes (1e21 reached it as a 500). */
  static readonly MAX_START = 1_000_000_000;

  private constructor(
    readonly start: number,
    readonly limit: number,
  ) {}

  static of(start = 0, limit: number = PageRequest.DEFAULT_LIMIT): PageRequest {
    const errors = [];
    if (!Number.isInteger(start) || start < 0 || start > PageRequest.MAX_START) errors.push({ name: 'start', error: `start must be an integer from 0 to ${PageRequest.MAX_START}` });
    if (!Number.isInteger(limit) || limit < 1 || limit > PageRequest.MAX_LIMIT) {
      errors.push({ name: 'limit', error: `limit must be an integer from 1 to ${PageRequest.MAX_LIMIT}` });
    }
    if (errors.length) throw new ValidationError(errors);
    return new PageRequest(start, limit);
  }
}

/** One page of results with the total count, so a client can compute further pages. */
export interface Page<T> {
  items: T[];
  total: number;
  start: number;
  limit: number;
}

export function pageOf<T>(items: T[], total: number, request: PageRequest): Page<T> {
  return { items, total, start: request.start, limit: request.limit };
}
