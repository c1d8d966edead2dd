import { randomBytes } from 'node:crypto';
import { DomainError, pageOf, PageRequest, ValidationError } from '@lnk/shared/kernel';
import { PageQueryDto } from '../requests/paging.request.dto';
import { Cursors, MAX_CURSOR_LENGTH } from './cursors';

const query = (fields: Partial<PageQueryDto>) => Object.assign(new PageQueryDto(), fields);
const scope = { list: 'links', owner: 'a'.repeat(24), query: { q: 'shop' } };
const items = ['e', 'd', 'c', 'b', 'a'].map((c) => ({ id: c.repeat(24) }));

/** The cursor after the first two items of `items`, as a list's first page answers it. */
function firstCursor(cursors: Cursors): string {
  const cursor = cursors.next(pageOf(items.slice(0, 2), items.length, PageRequest.of(0, 2)), scope);
  if (!cursor) throw new Error('a first page of a longer list has a next cursor');
  return cursor;
}

function codeOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return (error as DomainError).code;
  }
  return 'no error';
}

describe('Cursors', () => {
  const cursors = new Cursors(randomBytes(32));

  it('opens its own cursor into the page after the position, counting what was answered before', () => {
    const page = cursors.request(query({ cursor: firstCursor(cursors), limit: 2 }), scope);
    expect(page.after).toEqual(['d'.repeat(24)]);
    expect(page.start).toBe(2);
    expect(page.limit).toBe(2);
  });

  it('answers no cursor on the last page', () => {
    expect(cursors.next(pageOf(items.slice(3), items.length, PageRequest.of(3, 2)), scope)).toBeNull();
    // A keyset page knows its end from the extra row it read, not from the total.
    expect(cursors.next(pageOf(items.slice(3), 99, PageRequest.after(['c'.repeat(24)], 3, 2)), scope)).toBeNull();
  });

  // Defends: an account walking another account's list with a cursor it saw (a leaked URL, a shared log).
  it('refuses a cursor used by another account with INVALID_CURSOR', () => {
    const cursor = firstCursor(cursors);
    expect(codeOf(() => cursors.request(query({ cursor }), { ...scope, owner: 'b'.repeat(24) }))).toBe('INVALID_CURSOR');
  });

  // Defends: a cursor of one query (or list) replayed with another, which would answer a page of a list it never ordered.
  it('refuses a cursor used with another query or on another list', () => {
    const cursor = firstCursor(cursors);
    expect(codeOf(() => cursors.request(query({ cursor }), { ...scope, query: { q: 'other' } }))).toBe('INVALID_CURSOR');
    expect(codeOf(() => cursors.request(query({ cursor }), { ...scope, query: {} }))).toBe('INVALID_CURSOR');
    expect(codeOf(() => cursors.request(query({ cursor }), { ...scope, list: 'tags' }))).toBe('INVALID_CURSOR');
  });

  // Defends: a client forging a position (another id, a huge offset) or feeding the parser garbage.
  it('refuses an altered cursor, a forged one and garbage', () => {
    const cursor = firstCursor(cursors);
    const [position, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify([2, 'z'.repeat(24)])).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.endsWith('A') ? 'B' : 'A') + signature.slice(-1);
    for (const bad of [
      `${forged}.${signature}`,
      `${position}.${flipped}`,
      `${position}.`,
      position,
      '.',
      'x'.repeat(MAX_CURSOR_LENGTH + 1),
      '{"a":1}',
    ]) {
      expect(codeOf(() => cursors.request(query({ cursor: bad }), scope))).toBe('INVALID_CURSOR');
    }
    // Another key (another service, or a rotated SECRET_KEY) signs other cursors.
    expect(codeOf(() => new Cursors(randomBytes(32)).request(query({ cursor }), scope))).toBe('INVALID_CURSOR');
  });

  it('refuses cursor and start together with VALIDATION_ERROR on start', () => {
    try {
      cursors.request(query({ cursor: firstCursor(cursors), start: 0 }), scope);
      throw new Error('expected a validation error');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors.map((e) => e.name)).toEqual(['start']);
    }
  });

  it('binds a search whatever the order of the query fields', () => {
    const two = { ...scope, query: { q: 'shop', expired: 'true' } };
    const cursor = cursors.next(pageOf(items.slice(0, 2), items.length, PageRequest.of(0, 2)), two) ?? '';
    expect(cursors.request(query({ cursor }), { ...scope, query: { expired: 'true', q: 'shop' } }).after).toEqual(['d'.repeat(24)]);
  });

  it('tells nothing of the account or the query in the cursor', () => {
    const text = Buffer.from(firstCursor(cursors).split('.')[0], 'base64url').toString('utf8');
    expect(text).not.toContain(scope.owner);
    expect(text).not.toContain('shop');
  });

  it('answers a list route: the page read for the cursor given, each item presented alone, and the next cursor', async () => {
    const asked: PageRequest[] = [];
    const read = async (request: PageRequest) => {
      asked.push(request);
      return pageOf(items.slice(request.start, request.start + request.rows), items.length, request);
    };
    // A presenter with an optional second parameter: handed an array index it would answer something else.
    const present = (item: { id: string }, secret?: unknown) => ({ id: item.id, secret: secret ?? null });
    const answer = await cursors.answer(query({ cursor: firstCursor(cursors), limit: 2 }), scope, read, present);
    expect(asked.map((r) => [r.start, r.after])).toEqual([[2, ['d'.repeat(24)]]]);
    expect(answer.data).toEqual([
      { id: 'c'.repeat(24), secret: null },
      { id: 'b'.repeat(24), secret: null },
    ]);
    // The cursor it answers is one this list opens again, for the account and query it was made for.
    const next = answer.meta?.['nextCursor'] as string;
    expect(cursors.request(query({ cursor: next }), scope).after).toEqual(['b'.repeat(24)]);
    expect(codeOf(() => cursors.request(query({ cursor: next }), { ...scope, owner: 'b'.repeat(24) }))).toBe('INVALID_CURSOR');
  });
});
