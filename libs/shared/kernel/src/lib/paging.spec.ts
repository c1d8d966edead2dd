import { ValidationError } from './errors';
import { PageRequest, pageOf, pageOfNewestFirst } from './paging';

describe('PageRequest', () => {
  it('defaults to the first ten items', () => {
    expect(PageRequest.of()).toMatchObject({ start: 0, limit: 10 });
  });

  it.each([
    [-1, 10, 'start'],
    [0, 0, 'limit'],
    [0, 101, 'limit'],
    [1.5, 10, 'start'],
  ])('rejects start %p limit %p naming %s', (start, limit, field) => {
    try {
      PageRequest.of(start, limit);
      throw new Error('expected a validation error');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors.map((e) => e.name)).toEqual([field]);
    }
  });

  it('carries the request into the page', () => {
    expect(pageOf(['a'], 7, PageRequest.of(5, 1), (s) => [s])).toEqual({ items: ['a'], total: 7, start: 5, limit: 1, next: ['a'] });
  });
});

describe('keyset pages', () => {
  const items = ['e', 'd', 'c', 'b', 'a'].map((c) => ({ id: c }));

  it('reads one row more than the page after a position, and none skipped', () => {
    const request = PageRequest.after(['d'], 2, 2);
    expect([request.rows, request.offset]).toEqual([3, 0]);
    expect([PageRequest.of(4, 2).rows, PageRequest.of(4, 2).offset]).toEqual([2, 4]);
  });

  it("gives the last item's position when another page follows, by the extra row or by the total", () => {
    expect(pageOf(items.slice(2, 5), 5, PageRequest.after(['d'], 2, 2))).toMatchObject({ items: [{ id: 'c' }, { id: 'b' }], next: ['b'] });
    expect(pageOf(items.slice(3, 5), 5, PageRequest.after(['c'], 3, 2)).next).toBeNull();
    expect(pageOf(items.slice(0, 2), 5, PageRequest.of(0, 2)).next).toEqual(['d']);
    expect(pageOf(items.slice(4), 5, PageRequest.of(4, 2)).next).toBeNull();
  });

  it('walks a list held in memory newest first, each item once', () => {
    const seen: string[] = [];
    let page = pageOfNewestFirst(items, PageRequest.of(0, 2));
    seen.push(...page.items.map((i) => i.id));
    while (page.next) {
      page = pageOfNewestFirst(items, PageRequest.after(page.next, seen.length, 2));
      seen.push(...page.items.map((i) => i.id));
    }
    expect(seen).toEqual(['e', 'd', 'c', 'b', 'a']);
  });

  it('refuses a position with nothing in it', () => {
    expect(() => PageRequest.after([], 0, 2)).toThrow(ValidationError);
  });
});
