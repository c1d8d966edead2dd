import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError, type Keyset, type Page, PageRequest, ValidationError } from '@lnk/shared/kernel';
import type { PageQueryDto } from '../requests/paging.request.dto';
import { okPage, type SuccessEnvelope } from '../answers/envelope';

/**
 * What a cursor is bound to: the list (its name), the account walking it, and the query's filters and
 * sort as the request gave them. A cursor made for one is refused by every other.
 */
export interface CursorScope {
  list: string;
  owner: string;
  query?: Record<string, string | number | boolean | null | undefined>;
}

/**
 * Longer is no cursor this service made: the longest is the links list's by title, whose position holds a
 * lowercased title (200 characters, at most 600 bytes of UTF-8, more where JSON escapes quotes), about 1,000
 * characters in base64url with its signature; statistics' is under 400.
 */
export const MAX_CURSOR_LENGTH = 1536;
/** A position's parts at most (statistics': six), and each part's length (a lowercased title may outgrow the title's 200). */
const MAX_PARTS = 8;
const MAX_PART_LENGTH = 400;

export class InvalidCursorError extends DomainError {
  constructor() {
    super('INVALID_CURSOR', 'The cursor is not one this list gave for this account and query: start the walk again without it');
  }
}

/**
 * A search as a cursor is bound to it: the searches compare case-insensitively, and the links list's
 * cache shares one answer (its cursor included) between spellings, so every spelling gets the same cursor.
 */
export const searchKey = (q: string | undefined): string | undefined => q?.trim().toLowerCase() || undefined;

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64url');

/**
 * Cursors of the lists: `<position>.<signature>`, the position (the count answered so far, then the
 * last item's sort values and id, base64url JSON) signed with HMAC-SHA256 over the position and the scope.
 * The scope is not in the cursor, so a cursor tells nothing of the account or the query; it is only
 * opaque, not secret: its position is values of an item the caller was just given (ids; for statistics
 * also the day, link name and UTM values). Nothing is stored: any instance
 * sharing the key reads any other's cursors.
 */
export class Cursors {
  constructor(private readonly key: Buffer) {
    if (key.length < 32) throw new Error('a cursor key is 32 bytes at least');
  }

  /** The page a list request asks for: by cursor, or by start and limit (both is a VALIDATION_ERROR). */
  request(query: PageQueryDto, scope: CursorScope): PageRequest {
    if (query.cursor === undefined) return query.toPageRequest();
    if (query.start !== undefined)
      throw ValidationError.field('start', 'start and cursor cannot be used together: a cursor carries its own position');
    const { counted, after } = this.open(query.cursor, scope);
    return PageRequest.after(after, counted, query.limit ?? PageRequest.DEFAULT_LIMIT);
  }

  /** The cursor of the page after `page`, or null when it is the last. */
  next(page: Page<unknown>, scope: CursorScope): string | null {
    if (!page.next) return null;
    const position = b64(JSON.stringify([page.start + page.items.length, ...page.next]));
    return `${position}.${this.sign(position, scope)}`;
  }

  /**
   * A list route's answer: the page `read` gives for the page the request asks for (by cursor or by start),
   * each item presented (with the item alone), and the cursor of the page after it.
   */
  async answer<T, P>(
    query: PageQueryDto,
    scope: CursorScope,
    read: (request: PageRequest) => Promise<Page<T>>,
    present: (item: T) => P,
  ): Promise<SuccessEnvelope<P[]>> {
    const page = await read(this.request(query, scope));
    return okPage({ ...page, items: page.items.map((item) => present(item)), nextCursor: this.next(page, scope) });
  }

  private open(cursor: string, scope: CursorScope): { counted: number; after: Keyset } {
    const dot = cursor.indexOf('.');
    if (cursor.length > MAX_CURSOR_LENGTH || dot < 1) throw new InvalidCursorError();
    const position = cursor.slice(0, dot);
    const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(position, scope), 'base64url');
    // Checked before the position is read: nothing but what this service signed is ever parsed.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new InvalidCursorError();
    let parts: unknown;
    try {
      parts = JSON.parse(Buffer.from(position, 'base64url').toString('utf8'));
    } catch {
      throw new InvalidCursorError();
    }
    if (!Array.isArray(parts) || parts.length < 2 || parts.length > MAX_PARTS + 1) throw new InvalidCursorError();
    const [counted, ...after] = parts as unknown[];
    if (!Number.isInteger(counted) || (counted as number) < 0 || (counted as number) > PageRequest.MAX_START)
      throw new InvalidCursorError();
    if (!after.every((p): p is string => typeof p === 'string' && p.length <= MAX_PART_LENGTH)) throw new InvalidCursorError();
    return { counted: counted as number, after };
  }

  private sign(position: string, scope: CursorScope): string {
    const query = Object.entries(scope.query ?? {})
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const bound = JSON.stringify(['lnk-cursor/1', scope.list, scope.owner, query, position]);
    return b64(createHmac('sha256', this.key).update(bound).digest());
  }
}
