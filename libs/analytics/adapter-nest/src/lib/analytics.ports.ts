import { StatsInsightRepository, StatsLinks, StatsRepository } from '@lnk/analytics/domain';
import type { Token } from '@lnk/shared/http';

/**
 * Every port the statistics use cases need, by the name the app binds it under (AnalyticsPorts), each
 * provided in AnalyticsModule under its abstract class: the use cases are built from them by class, and
 * the app's composition root binds them all in one typed object, so a port left unbound does not compile.
 */
export const ANALYTICS_PORTS = {
  /** The daily rollups, read by GET /user/stats. */
  stats: StatsRepository,
  /** The rollups read by dimension, interval and link (the insights). */
  insights: StatsInsightRepository,
  /** The links context's links and tags of the caller (a filter's linkId and tagId), through a bridge. */
  links: StatsLinks,
};

/** What the app binds each of ANALYTICS_PORTS to. */
export type AnalyticsPorts = {
  readonly [K in keyof typeof ANALYTICS_PORTS]: (typeof ANALYTICS_PORTS)[K] extends Token<infer T> ? T : never;
};
