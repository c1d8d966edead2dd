import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import type { ImportLine, LinkView } from '@lnk/links/domain';
import { parseUrl, ValidationError } from '@lnk/shared/kernel';
import { presentLink, shortUrlOf } from './links.presenter';
import type { ShortUrlBase } from './short-url-base';

/**
 * Links as CSV: the import's reading (our columns, and those of Bitly's and Shlink's exports) and the
 * export's writing, which an import reads back.
 *
 * Tags in one cell are separated by "|" (Shlink's export does the same): a tag name holding "|" does
 * not survive the trip. Cells that a spreadsheet would run as a formula (beginning with =, +, -, @, a
 * tab or a carriage return, after any apostrophes) are written with one more leading apostrophe, and an
 * import takes one such apostrophe off, so an exported file reads back exactly.
 */

/** The largest CSV an import takes (a larger body: 413 PAYLOAD_TOO_LARGE). */
export const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;
/**
 * The most links (records after the header) one import takes: a file of more is refused (400), so the
 * work one request can cause is bounded whatever its lines hold (10 MB of short lines were 5 million).
 */
export const IMPORT_LINE_LIMIT = 100_000;
export const TAG_SEPARATOR = '|';

type Field = 'url' | 'slug' | 'shortLink' | 'customLinks' | 'title' | 'description' | 'tags';

/**
 * Header names (lower case, without spaces, "_" and "-") and the field each gives. A slug comes from, in
 * this order: slug or Shlink's shortCode; Bitly's custom_links (custom_bitlinks), the first of them; the
 * path of the short link (Bitly's link, Shlink's shortUrl). Other columns (createdAt, visits, domain,
 * clicks, ...) are ignored.
 */
const COLUMNS: Record<string, Field> = {
  url: 'url',
  longurl: 'url',
  slug: 'slug',
  shortcode: 'slug',
  customlinks: 'customLinks',
  custombitlinks: 'customLinks',
  link: 'shortLink',
  shorturl: 'shortLink',
  title: 'title',
  description: 'description',
  tags: 'tags',
};

const normalised = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');

/** A formula's first character, after any apostrophes already there. */
const FORMULA = /^'*[=+\-@\t\r]/;

/** A cell a spreadsheet would not run: see the file's comment. */
export function neutralised(cell: string): string {
  return FORMULA.test(cell) ? `'${cell}` : cell;
}

/** The cell as written before export neutralised it. */
export function unneutralised(cell: string): string {
  return cell.startsWith("'") && FORMULA.test(cell) ? cell.slice(1) : cell;
}

/** The last segment of a short link's path: `https://bit.ly/abc`, `bit.ly/abc` and `abc` all give `abc`. */
function slugOfShortLink(value: string): string | undefined {
  const first = value.split(/[\s,|]+/).find((v) => v !== '');
  if (!first) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(first) ? first : `https://${first}`;
  if (!first.includes('/')) return first;
  const parsed = parseUrl(withScheme);
  if (!parsed) return undefined;
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  if (!segments.length) return undefined;
  const last = segments[segments.length - 1];
  // A broken %-escape is left as it is: the slug's rules refuse it on its line.
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const bad = (error: string) => ValidationError.field('body', error);

/** The body as UTF-8 text, refused with a clear error when it is not a CSV of text. */
function textOf(body: unknown): string {
  if (!Buffer.isBuffer(body)) throw ValidationError.field('content-type', 'an import is a CSV file: send it as text/csv');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    throw bad('the file is not UTF-8 text (save it as CSV UTF-8)');
  }
  const nul = text.indexOf('\u0000');
  if (nul >= 0) throw bad(`the file holds a NUL byte (on line ${text.slice(0, nul).split('\n').length}): it is not a text CSV file`);
  return text;
}

/**
 * The lines of an import, from a text/csv body, read as they are asked for: its header names the columns
 * (see COLUMNS), one link per record after it, at most IMPORT_LINE_LIMIT records. A file that is not
 * UTF-8 text, holds NUL bytes, has no url column, is malformed (an unclosed quote, say) or has too many
 * lines is refused as a whole, with the line, when the reading gets there (the import writes nothing
 * before it has read every line); a record's own faults are the domain's to report. Parsed as a stream
 * over the text, a chunk at a time: the import's pace, which lets the event loop turn between slices.
 */
export function readImportCsv(body: unknown): AsyncGenerator<ImportLine> {
  const text = textOf(body);
  if (text.trim() === '') throw bad('the file is empty: its first line names the columns (url, slug, title, description, tags)');
  return importLinesOf(text);
}

async function* importLinesOf(text: string): AsyncGenerator<ImportLine> {
  let fields: (Field | null)[] = [];
  const parser = parse({
    bom: true,
    columns: (header: string[]) => {
      fields = header.map((h) => COLUMNS[normalised(h)] ?? null);
      if (!fields.includes('url'))
        throw bad('the first line must name the columns, one of them the destination: url (or long_url, longUrl)');
      // Each column under its own index: two columns of one field are told apart, the first one given wins.
      return header.map((_h, i) => String(i));
    },
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
    max_record_size: 64 * 1024,
  });
  const source = Readable.from(chunksOf(text));
  source.pipe(parser);
  let records = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string | undefined>; info: { lines: number } }>) {
      if (++records > IMPORT_LINE_LIMIT)
        throw bad(`the file has more than ${IMPORT_LINE_LIMIT.toLocaleString('en')} lines of links: split it into several imports`);
      const cell = (field: Field): string | undefined => {
        const index = fields.indexOf(field);
        const value = index < 0 ? undefined : record[String(index)];
        return value === undefined ? undefined : unneutralised(value.trim());
      };
      const slug = cell('slug') || slugOfShortLink(cell('customLinks') ?? '') || slugOfShortLink(cell('shortLink') ?? '');
      yield {
        line: info.lines,
        url: cell('url') ?? '',
        ...(slug ? { slug } : {}),
        ...(cell('title') ? { title: cell('title') } : {}),
        ...(cell('description') ? { description: cell('description') } : {}),
        tags: (cell('tags') ?? '')
          .split(TAG_SEPARATOR)
          .map((t) => t.trim())
          .filter((t) => t !== ''),
      };
    }
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    if (error instanceof CsvError) throw bad(`the file is not valid CSV: ${error.message}`);
    throw error;
  } finally {
    source.destroy();
    parser.destroy();
  }
}

function* chunksOf(text: string, size = 64 * 1024): Generator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}

/** The export's columns: the first five are what an import reads; the others say what a link has become. */
export const EXPORT_COLUMNS = [
  'url',
  'slug',
  'title',
  'description',
  'tags',
  'shortUrl',
  'domain',
  'clicks',
  'status',
  'createdAt',
] as const;

/** A batch of links as CSV rows (with the header before the first batch), each cell neutralised. */
export function csvRows(views: LinkView[], base: ShortUrlBase, header: boolean): string {
  const rows = views.map(({ link, domain, tags }) =>
    [
      link.url,
      link.slug,
      link.title,
      link.description,
      tags.map((t) => t.name).join(TAG_SEPARATOR),
      shortUrlOf(base, link.slug, domain?.name ?? null),
      domain?.name ?? '',
      String(link.clicks),
      link.status ? 'true' : 'false',
      link.createdAt.toISOString(),
    ].map(neutralised),
  );
  return stringify(header ? [[...EXPORT_COLUMNS], ...rows] : rows);
}

/** A batch of links as NDJSON: one link per line, as GET /user/link/{id} presents it. */
export function ndjsonRows(views: LinkView[], base: ShortUrlBase): string {
  return views.map((view) => `${JSON.stringify(presentLink(view, base))}\n`).join('');
}
