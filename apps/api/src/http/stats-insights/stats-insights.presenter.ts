import type { ClickDimension, IntervalVisits, LinkVisits, ValueVisits } from '@lnk/analytics/domain';
import type { Static } from '../../openapi/schema';
import type { StatsIntervalSchema, StatsTopLinkSchema, StatsValueSchema } from './stats-insights.schemas';

/** The path segment of each dimension's breakdown (`GET /user/stats/{dimension}`). */
export const DIMENSION_OF_PATH: Record<string, ClickDimension> = {
  referrers: 'referrer',
  countries: 'country',
  devices: 'device',
  browsers: 'browser',
  os: 'os',
  triggers: 'trigger',
};

export const presentStatsValue = (v: ValueVisits): Static<typeof StatsValueSchema> => ({ value: v.value, visits: v.visits });

export const presentStatsInterval = (i: IntervalVisits): Static<typeof StatsIntervalSchema> => ({ date: `${i.date}T00:00:00.000Z`, visits: i.visits });

export const presentStatsTopLink = (l: LinkVisits): Static<typeof StatsTopLinkSchema> => ({ linkId: l.linkId, linkName: l.linkName, domainId: l.domainId, domainName: l.domainName, visits: l.visits });
