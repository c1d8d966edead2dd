/**
 * Many rows as one statement parameter: a JSON array of row arrays, read back in SQL by `jsonRowsOf`.
 *
 * The alternative, one `unnest($1::date[], $2::text[], ...)` array per column, has the driver escape every
 * element in JavaScript (pg's arrayString): 27,000 rows of seven columns took 150-500 ms of the event loop
 * here, against 15-20 ms for JSON.stringify, which is native; PostgreSQL reads the JSON as fast as the
 * array literals. A click write of a busy second is that size.
 */

/** A column read from the JSON rows: its name and its SQL type (`date`, `char(24)`, `text`, `bigint`, ...). */
export type JsonColumn = readonly [name: string, type: string];

/** The rows as the parameter `jsonRowsOf` reads: each row an array in the columns' order (undefined as null). */
export function jsonRows(rows: readonly (readonly unknown[])[]): string {
  return JSON.stringify(rows);
}

/**
 * A FROM item that yields the rows of the JSON parameter `$param` as a relation named `alias` with the
 * given columns, in the array's order: `INSERT ... SELECT date, link_id FROM ${jsonRowsOf(1, [...], 'i')}`.
 */
export function jsonRowsOf(param: number, columns: readonly JsonColumn[], alias: string): string {
  const fields = columns.map(([name, type], index) => `(r->>${index})::${type} AS ${name}`).join(', ');
  return `(SELECT ${fields} FROM json_array_elements($${param}::json) AS r) AS ${alias}`;
}

/** What a row of a click write is keyed by first: the rows of one (date, link) are written together. */
export interface LinkDayKey {
  date: string;
  linkId: string;
}

const compareLinkDay = (a: LinkDayKey, b: LinkDayKey) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.linkId < b.linkId ? -1 : a.linkId > b.linkId ? 1 : 0;

/**
 * Rows in chunks of about `maxRows` (more when one (date, link) alone has more), in (date, link) order,
 * the rows of one (date, link) never split between two chunks.
 *
 * Writers take row locks in key order so that two of them cannot deadlock. Each statement orders its own
 * rows; the chunks must then come in the same order and hold disjoint key ranges, whatever the batch, which
 * a split at (date, link) boundaries gives: dates (YYYY-MM-DD) and ids (lowercase hex) sort the same in
 * JavaScript as in PostgreSQL. A write in chunks lets the event loop answer requests between two statements
 * instead of building one statement of every row at once.
 */
export function linkDayChunks<T extends LinkDayKey>(rows: readonly T[], maxRows: number): T[][] {
  const groups: T[][] = [];
  for (const row of rows) {
    const last = groups[groups.length - 1];
    if (last && last[0].date === row.date && last[0].linkId === row.linkId) last.push(row);
    else groups.push([row]);
  }
  groups.sort((a, b) => compareLinkDay(a[0], b[0]));
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let previous: LinkDayKey | null = null;
  for (const group of groups) {
    // Two runs of the same (date, link) (rows not given together) are adjacent once sorted: one chunk.
    const sameKey = previous !== null && compareLinkDay(previous, group[0]) === 0;
    if (chunk.length && !sameKey && chunk.length + group.length > maxRows) {
      chunks.push(chunk);
      chunk = [];
    }
    for (const row of group) chunk.push(row);
    previous = group[0];
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}
