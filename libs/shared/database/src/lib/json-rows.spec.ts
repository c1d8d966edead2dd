import { jsonRows, jsonRowsOf, linkDayChunks } from './json-rows';

const row = (date: string, linkId: string, n = 0) => ({ date, linkId, n });
const keys = (chunk: { date: string; linkId: string }[]) => chunk.map((r) => `${r.date}/${r.linkId}`);

describe('linkDayChunks', () => {
  // Defends the click write against deadlocks between instances: every writer must take its row locks in
  // one global order, so chunks must come in (date, link) order with disjoint key ranges.
  it('orders the chunks by (date, link) and never splits the rows of one (date, link)', () => {
    const rows = [
      row('2026-11-25', 'b', 1),
      row('2026-11-25', 'b', 2),
      row('2026-11-24', 'c'),
      row('2026-11-25', 'a'),
      row('2026-11-25', 'a'),
      row('2026-11-25', 'a'),
    ];
    const chunks = linkDayChunks(rows, 2);
    expect(chunks.map(keys)).toEqual([
      ['2026-11-24/c'],
      ['2026-11-25/a', '2026-11-25/a', '2026-11-25/a'],
      ['2026-11-25/b', '2026-11-25/b'],
    ]);
    expect(chunks.flat()).toHaveLength(rows.length);
  });

  it('joins two runs of the same (date, link) given apart into one chunk', () => {
    const rows = [row('d', 'a'), row('d', 'b'), row('d', 'a')];
    expect(linkDayChunks(rows, 1).map(keys)).toEqual([['d/a', 'd/a'], ['d/b']]);
  });

  it('packs whole (date, link)s up to the size and keeps every row', () => {
    const rows = Array.from({ length: 10 }, (_, i) => row('d', `id${9 - i}`, i));
    const chunks = linkDayChunks(rows, 4);
    expect(chunks.map((c) => c.length)).toEqual([4, 4, 2]);
    expect(chunks.flat().map((r) => r.linkId)).toEqual(rows.map((r) => r.linkId).sort());
    expect(linkDayChunks([], 4)).toEqual([]);
  });
});

describe('jsonRowsOf', () => {
  it('reads each column of the JSON rows by position, cast to its type', () => {
    expect(
      jsonRowsOf(
        2,
        [
          ['id', 'char(24)'],
          ['n', 'bigint'],
        ],
        'v',
      ),
    ).toBe('(SELECT (r->>0)::char(24) AS id, (r->>1)::bigint AS n FROM json_array_elements($2::json) AS r) AS v');
    // A missing value is JSON null, which ->> reads as SQL NULL.
    expect(jsonRows([['a', null, 3]])).toBe('[["a",null,3]]');
  });
});
