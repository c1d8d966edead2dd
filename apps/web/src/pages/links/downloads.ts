import type { LinkListItem } from '@lnk/sdk';

/** Saves a blob as a file the browser downloads (an object URL, released once the click has used it). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A CSV cell (RFC 4180), quoted when it holds a comma, quote or line break. A cell a spreadsheet would
 * run as a formula gets one more leading apostrophe, which an import takes off again: the API's export
 * writes cells the same way, so a file from here reads back exactly.
 */
export function csvCell(value: string): string {
  const safe = /^'*[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The chosen links as CSV in the columns an import reads (url, slug, title, description). */
export function linksCsv(links: readonly LinkListItem[]): string {
  const lines = [['url', 'slug', 'title', 'description'].join(',')];
  for (const link of links) lines.push([link.url, link.slug, link.title ?? '', link.description ?? ''].map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The chosen links as NDJSON, one link object a line, as the API's JSON export writes them. */
export function linksNdjson(links: readonly LinkListItem[]): string {
  return links.map((link) => JSON.stringify(link)).join('\n') + (links.length ? '\n' : '');
}
