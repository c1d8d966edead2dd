import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** TRUST_PROXY as the API reads it: believe no proxy, any, a number of hops, or these addresses/CIDRs. */
export type TrustProxy = boolean | number | string[];

/** Names proxy-addr (Fastify's trustProxy) accepts for ranges of addresses. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** The most hops TRUST_PROXY may name: a chain of proxies is a few long, and a large count is `true` in disguise. */
export const MAX_TRUSTED_HOPS = 32;

const TRUST_PROXY_FORMS =
  `true (believe any X-Forwarded-For, which a client can write itself), false, a number of proxy hops from 0 to ${MAX_TRUSTED_HOPS}, ` +
  'or comma-separated proxy addresses and CIDRs (like 10.0.0.0/8, ::1; loopback, linklocal and uniquelocal name their ranges)';

/**
 * An address, a CIDR with a prefix its family allows, or a named range; anything else was a typo that
 * would have trusted nothing, or thrown at the first request.
 */
function isProxyEntry(entry: string): boolean {
  if (NAMED_RANGES[entry]) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

/**
 * Reads TRUST_PROXY, the same for every process (the API, the redirect app, the worker and the CLI read
 * it through their tables): `true`, `false`, a hop count, or proxies by address or CIDR. Anything else
 * (`on`, `yes`, `-1`, `1.2.3.4/99`) is refused with the accepted forms, so a start never goes on trusting
 * something other than what was meant.
 */
export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) {
    if (Number(value) > MAX_TRUSTED_HOPS) throw new Error(`must be ${TRUST_PROXY_FORMS} (got "${raw}")`);
    return Number(value);
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const wrong = entries.filter((e) => !isProxyEntry(e));
  if (entries.length === 0 || wrong.length) {
    throw new Error(`must be ${TRUST_PROXY_FORMS} (got ${wrong.length ? wrong.map((e) => `"${e}"`).join(', ') : `"${raw}"`})`);
  }
  return entries;
}

function plain(address: string): string {
  const trimmed = address.trim().replace(/^\[|\](:\d+)?$/g, '');
  return trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

function trustedList(entries: string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
    const [address, bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (!isIP(address)) continue;
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The client address of a request, as Fastify's `request.ip` gives it with the same trustProxy setting
 * (proxy-addr's rules): the socket's address, then X-Forwarded-For from the right while the hop is trusted.
 */
export function clientAddressOf(trust: TrustProxy): (request: IncomingMessage) => string {
  const socketOf = (request: IncomingMessage) => request.socket.remoteAddress ?? '';
  if (trust === false || trust === 0 || (Array.isArray(trust) && trust.length === 0)) return socketOf;
  const trusted =
    trust === true
      ? () => true
      : typeof trust === 'number'
        ? (_address: string, hop: number) => hop < trust
        : (
            (list) => (address: string) =>
              list(plain(address))
          )(trustedList(trust));
  return (request) => {
    const header = request.headers['x-forwarded-for'];
    const socket = socketOf(request);
    if (!header) return socket;
    const forwarded = (Array.isArray(header) ? header.join(',') : header)
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean)
      .reverse();
    const chain = [socket, ...forwarded];
    for (let hop = 0; hop < chain.length - 1; hop++) if (!trusted(chain[hop], hop)) return chain[hop];
    return chain[chain.length - 1];
  };
}

/**
 * The Host a request was sent to, as Fastify's `request.host` gives it: behind a trusted proxy, the last
 * X-Forwarded-Host; otherwise the Host header (a client cannot name another host through a proxy it sent).
 */
export function requestHostOf(trust: TrustProxy): (request: IncomingMessage) => string {
  const direct = (request: IncomingMessage) => request.headers.host ?? '';
  if (trust === false || trust === 0 || (Array.isArray(trust) && trust.length === 0)) return direct;
  const trustsSocket =
    trust === true || typeof trust === 'number'
      ? () => true
      : (
          (list) => (request: IncomingMessage) =>
            list(plain(request.socket.remoteAddress ?? ''))
        )(trustedList(trust));
  return (request) => {
    const forwarded = request.headers['x-forwarded-host'];
    if (!forwarded || !trustsSocket(request)) return direct(request);
    const value = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
    return value.slice(value.lastIndexOf(',') + 1).trim();
  };
}
