import { parseUrl, ValidationError } from '@lnk/shared/kernel';
import { hasControlCharacter } from './control-characters';

export const MAX_URL_LENGTH = 2048;

/**
 * One spelling per address: the URL parser already writes every IPv4 form (2130706433, 0x7f.0.0.1, 127.1)
 * as dotted decimal and IPv6 in its shortest form; an IPv4-mapped IPv6 address becomes its IPv4 address.
 */
function canonicalHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (!mapped) return host;
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** This machine: every loopback address and name, and the unspecified addresses, which reach it too. */
function isLocalMachine(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '[::1]' ||
    host === '0.0.0.0' ||
    host === '[::]'
  );
}

/** An own host as the config gives it (a host name or address), in canonical form. */
function canonicalOwnHost(own: string): string {
  const bracketed = own.includes(':') && !own.startsWith('[') ? `[${own}]` : own;
  const parsed = parseUrl(`http://${bracketed}/`);
  return parsed ? canonicalHost(parsed.hostname) : own.toLowerCase();
}

/**
 * A destination as stored: an absolute http(s) URL as the URL parser writes it (punycode host,
 * percent-encoded path and query), at most 2048 characters, with no control characters and no user
 * info, and not on one of the service's own hosts under any spelling (a short link to a short link could
 * loop); when the service runs on this machine's loopback, no loopback address or name at all. `field`
 * names the value in the errors (a link's other destinations are checked alike).
 */
export function checkDestinationUrl(value: unknown, ownHosts: readonly string[], field = 'url'): string {
  const invalid = (why: string) => ValidationError.field(field, why);
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} is required`);
  if (value.length > MAX_URL_LENGTH) throw invalid(`${field} must be at most ${MAX_URL_LENGTH} characters`);
  // CR/LF would split the Location header; the URL parser drops TAB, CR and LF silently, headers carry none.
  if (hasControlCharacter(value)) throw invalid(`${field} may not contain control characters`);
  const url = value.trim();
  const parsed = parseUrl(url);
  if (!parsed) throw invalid(`${field} must be an absolute URL`);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(`${field} must use http or https`);
  if (!parsed.hostname) throw invalid(`${field} must name a host`);
  // https://bank.example@evil.example/ reads as the bank to a person and goes to the other host.
  if (parsed.username || parsed.password) throw invalid(`${field} may not carry a user name or password`);
  const host = canonicalHost(parsed.hostname);
  const own = ownHosts.map(canonicalOwnHost);
  if (own.includes(host) || (isLocalMachine(host) && own.some(isLocalMachine)))
    throw invalid(`${field} may not point at a short domain of this service`);
  if (parsed.href.length > MAX_URL_LENGTH) throw invalid(`${field} must be at most ${MAX_URL_LENGTH} characters once encoded`);
  return parsed.href;
}
