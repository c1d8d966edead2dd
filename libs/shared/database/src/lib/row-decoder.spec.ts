import {
  bool,
  decimal,
  firstOf,
  int,
  oneOf,
  Row,
  RowDecodeError,
  rowsOf,
  text,
  textArray,
  textOrNull,
  timestamp,
  timestampOrNull,
} from './row-decoder';

// Defends the one promise of the decoders: a row that does not have the shape a repository declared
// fails at the read, naming the column, instead of reaching the domain as a wrong value behind a cast.
const link = (r: Row) => ({
  id: text(r, 'id'),
  domainId: textOrNull(r, 'domain_id'),
  clicks: int(r, 'clicks'),
  status: bool(r, 'status'),
  tagIds: textArray(r, 'tag_ids'),
  createdAt: timestamp(r, 'created_at'),
});

const good: Row = {
  id: 'l1',
  domain_id: null,
  clicks: '42',
  status: true,
  tag_ids: ['t1'],
  created_at: new Date('2026-01-02T03:04:05.678Z'),
};

describe('row decoders', () => {
  it('reads a well-typed row, with int8 strings as numbers', () => {
    expect(link(good)).toEqual({
      id: 'l1',
      domainId: null,
      clicks: 42,
      status: true,
      tagIds: ['t1'],
      createdAt: new Date('2026-01-02T03:04:05.678Z'),
    });
  });

  it.each([
    ['clicks', { clicks: 'many' }, 'column clicks: expected an integer, got string "many"'],
    ['clicks', { clicks: '9007199254740993' }, 'column clicks: expected an integer'],
    ['clicks', { clicks: 1.5 }, 'column clicks: expected an integer, got number 1.5'],
    ['status', { status: 't' }, 'column status: expected a boolean, got string "t"'],
    ['id', { id: 7 }, 'column id: expected text, got number 7'],
    ['created_at', { created_at: 'yesterday' }, 'column created_at: expected a timestamp'],
    ['tag_ids', { tag_ids: '{t1}' }, 'column tag_ids: expected an array of text'],
    ['domain_id', { domain_id: 3 }, 'column domain_id: expected text, got number 3'],
  ])('fails loudly on a wrong type in %s', (_column, change, message) => {
    expect(() => link({ ...good, ...change })).toThrow(RowDecodeError);
    expect(() => link({ ...good, ...change })).toThrow(message);
  });

  it('fails on a missing column even where the value may be null (a wrong query, not an empty value)', () => {
    const { domain_id: _dropped, ...withoutDomain } = good;
    expect(() => link(withoutDomain)).toThrow('column domain_id: expected text, got no such column');
    expect(() => timestampOrNull({}, 'paid_at')).toThrow('column paid_at: expected a timestamp, got no such column');
  });

  it('reads numeric strings, timestamps as text, and a fixed set of values', () => {
    expect(decimal({ price: '12.50' }, 'price')).toBe(12.5);
    expect(() => decimal({ price: '12,50' }, 'price')).toThrow('column price: expected a decimal number');
    expect(timestamp({ at: '2026-01-02T00:00:00.000Z' }, 'at')).toEqual(new Date('2026-01-02T00:00:00.000Z'));
    const status = oneOf(['active', 'canceled'] as const);
    expect(status({ status: 'active' }, 'status')).toBe('active');
    expect(() => status({ status: 'paused' }, 'status')).toThrow('column status: expected one of active, canceled, got string "paused"');
  });

  it('decodes every row of a result, or the first one, or answers null for none', () => {
    const result = { rows: [good, { ...good, id: 'l2' }], affected: 2 };
    expect(rowsOf(result, link).map((l) => l.id)).toEqual(['l1', 'l2']);
    expect(firstOf(result, link)?.id).toBe('l1');
    expect(firstOf({ rows: [], affected: 0 }, link)).toBeNull();
  });
});
