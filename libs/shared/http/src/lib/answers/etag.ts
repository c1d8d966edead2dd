import { createHash } from 'node:crypto';

/**
 * The strong entity tag (RFC 9110 8.8.3) of an answer's `data`: a digest of its JSON, so it changes with
 * every change a client could see in it, whichever instance made the change, and two instances answer the
 * same tag for the same resource. 160 bits of SHA-256, base64url.
 */
export function etagOf(data: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(data) ?? '').digest('base64url').slice(0, 27)}"`;
}

/**
 * Whether an If-Match or If-None-Match field names `etag`: `*` names any current representation; a list
 * is compared entry by entry. If-Match compares strongly (a weak `W/` tag never matches), If-None-Match
 * weakly (RFC 9110 13.1.1, 13.1.2). A field of more than 64 entries is not read past them (a bounded walk).
 */
export function namesETag(field: string | undefined, etag: string, comparison: 'strong' | 'weak'): boolean {
  if (field === undefined) return false;
  const entries = field.split(',', 64).map((entry) => entry.trim());
  return entries.some((entry) => {
    if (entry === '*') return true;
    if (entry.startsWith('W/')) return comparison === 'weak' && entry.slice(2) === etag;
    return entry === etag;
  });
}
