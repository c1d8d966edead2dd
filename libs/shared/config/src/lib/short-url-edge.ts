import { integer } from './parsers';
import type { ValuesOf, VariableTable } from './variables';

/**
 * The settings of whatever answers short URLs, the same in apps/redirect and in the API process (which
 * answers them too unless SERVE_SHORT_URLS=false): the click write and the lookup cache.
 */
export const SHORT_URL_EDGE_VARIABLES = {
  CLICK_FLUSH_INTERVAL: {
    default: '1000',
    description: 'milliseconds between writes of the buffered clicks: a crash (kill -9) loses at most this long of clicks; a longer one writes fewer rows per click (each link once per write)',
    parse: integer(10, 60_000),
  },
  CLICK_BUFFER_ROWS: { default: '100000', description: 'click rows held between writes; past it clicks are dropped (and counted in /metrics)', parse: integer(100, 10_000_000) },
  REDIRECT_CACHE_SIZE: { default: '50000', description: 'links kept in the lookup cache', parse: integer(1, 10_000_000) },
  REDIRECT_CACHE_TTL: { default: '60', description: 'seconds a cached link is answered without asking the database (a change evicts it at once, in every instance through REDIS_URL)', parse: integer(1, 86_400) },
} satisfies VariableTable;

export interface ShortUrlEdgeConfig {
  clickFlushIntervalMs: number;
  clickBufferMaxRows: number;
  redirectCache: { maxEntries: number; ttlMs: number };
}

export function shortUrlEdgeOf(v: ValuesOf<typeof SHORT_URL_EDGE_VARIABLES>): ShortUrlEdgeConfig {
  return {
    clickFlushIntervalMs: v.CLICK_FLUSH_INTERVAL,
    clickBufferMaxRows: v.CLICK_BUFFER_ROWS,
    redirectCache: { maxEntries: v.REDIRECT_CACHE_SIZE, ttlMs: v.REDIRECT_CACHE_TTL * 1000 },
  };
}
