/**
 * The URL parser's reading of `value` (against `base` when given), or null when it is not a URL.
 *
 * Not `URL.canParse`: on Node 20 and 22, once V8 has optimised its fast path (after a few thousand calls
 * with ASCII input), it answers false for any input with a non-ASCII character, so an internationalised
 * domain name (https://bücher.example/) was refused after the service had checked some thousands of
 * ordinary URLs. `new URL` has no such path.
 */
export function parseUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}
