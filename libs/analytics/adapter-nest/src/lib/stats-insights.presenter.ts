import { CLICK_DIMENSIONS, ClickDimension, IntervalVisits, LinkVisits, ValueVisits } from '@lnk/analytics/domain';
import type { Static } from '@lnk/shared/http';
import type { StatsIntervalSchema, StatsTopLinkSchema, StatsValueSchema } from './stats-insights.schemas';

/** The path segment of each dimension's breakdown (`GET /user/stats/{dimension}`): plural, as the list of its values. */
export const DIMENSION_PATHS: Record<ClickDimension, string> = {
  referrer: 'referrers',
  country: 'countries',
  device: 'devices',
  browser: 'browsers',
  os: 'os',
  trigger: 'triggers',
};

/** Every name the path takes: the plurals, then each dimension's own (singular) name, which means the same. */
export const DIMENSION_NAMES: readonly string[] = [...new Set([...Object.values(DIMENSION_PATHS), ...CLICK_DIMENSIONS])];

/** The dimension a path segment names (plural or singular), or null. */
export function dimensionOfPath(name: string): ClickDimension | null {
  return CLICK_DIMENSIONS.find((dimension) => dimension === name || DIMENSION_PATHS[dimension] === name) ?? null;
}

export const presentStatsValue = (v: ValueVisits): Static<typeof StatsValueSchema> => ({ value: v.value, visits: v.visits });

export const presentStatsInterval = (i: IntervalVisits): Static<typeof StatsIntervalSchema> => ({
  date: `${i.date}T00:00:00.000Z`,
  visits: i.visits,
});

export const presentStatsTopLink = (l: LinkVisits): Static<typeof StatsTopLinkSchema> => ({
  linkId: l.linkId,
  linkName: l.linkName,
  domainId: l.domainId,
  domainName: l.domainName,
  visits: l.visits,
});
