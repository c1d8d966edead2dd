import { ValidationError } from './errors';
import { PageRequest, pageOf } from './paging';

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
    expect(pageOf(['a'], 7, PageRequest.of(5, 1))).toEqual({ items: ['a'], total: 7, start: 5, limit: 1 });
  });
});
