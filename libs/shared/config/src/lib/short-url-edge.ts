import { boolean, integer } from './parsers';
import type { ValuesOf, VariableTable } from './variables';

/**
 * The settings of whatever answers short URLs, the same in apps/redirect and in the API process (which
 * answers them too unless SERVE_SHORT_URLS=false): the click write and the lookup cache.
 */
export const SHORT_URL_EDGE_VARIABLES = {
  CLICK_FLUSH_INTERVAL: {
    default: '1000',
    description:
      'milliseconds between writes of the buffered clicks while writes are quick; a crash (kill -9) loses the clicks since the last write',
    parse: integer(10, 60_000),
  },
  CLICK_FLUSH_MAX_INTERVAL: {
    default: '10000',
    description:
      'the longest wait between two writes of the buffered clicks: after a slow write (many links ' +
      'clicked since the last) the next waits up to nine times as long, within this bound, so the ' +
      'writer takes about a tenth of the time; what a crash (kill -9) may lose at most',
    parse: integer(10, 600_000),
  },
  CLICK_DIMENSIONS: {
    default: 'true',
    description:
      "whether a counted visit's dimensions (referrer host, country, device, browser, OS, QR or link) " +
      'are derived and counted; false counts visits per day, link and UTM values only',
    parse: boolean,
  },
  CLICK_BUFFER_ROWS: {
    default: '100000',
    description: 'click rows held between writes; past it clicks are dropped (and counted in /metrics)',
    parse: integer(100, 10_000_000),
  },
  REDIRECT_CACHE_SIZE: { default: '50000', description: 'links kept in the lookup cache', parse: integer(1, 10_000_000) },
  REDIRECT_CACHE_TTL: {
    default: '60',
    description:
      'seconds a cached link is answered without asking the database (a change evicts it at once, in every instance through REDIS_URL)',
    parse: integer(1, 86_400),
  },
} satisfies VariableTable;

export interface ShortUrlEdgeConfig {
  clickFlushIntervalMs: number;
  /** At least clickFlushIntervalMs. */
  clickFlushMaxIntervalMs: number;
  clickBufferMaxRows: number;
  clickDimensions: boolean;
  redirectCache: { maxEntries: number; ttlMs: number };
}

export function shortUrlEdgeOf(v: ValuesOf<typeof SHORT_URL_EDGE_VARIABLES>): ShortUrlEdgeConfig {
  return {
    clickFlushIntervalMs: v.CLICK_FLUSH_INTERVAL,
    clickFlushMaxIntervalMs: Math.max(v.CLICK_FLUSH_INTERVAL, v.CLICK_FLUSH_MAX_INTERVAL),
    clickBufferMaxRows: v.CLICK_BUFFER_ROWS,
    clickDimensions: v.CLICK_DIMENSIONS,
    redirectCache: { maxEntries: v.REDIRECT_CACHE_SIZE, ttlMs: v.REDIRECT_CACHE_TTL * 1000 },
  };
}
