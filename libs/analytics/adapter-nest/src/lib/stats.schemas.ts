import { dateTime, id, integer, named, NEXT_CURSOR, nullable, object, string } from '@lnk/shared/http';

export const StatsRecordSchema = named(
  'StatsRecord',
  object({
    id: string,
    date: dateTime,
    userId: id,
    linkId: id,
    linkName: string,
    domainId: nullable(string),
    domainName: string,
    utmSource: string,
    utmMedium: string,
    utmCampaign: string,
    visits: integer,
    passwordPassed: integer,
    passwordFailed: integer,
  }),
);

/** `meta` of the statistics: the number of rows of the range; a page adds its start and limit (spec 2.2) and the next page's cursor. */
export const STATS_META = object({ total: integer, start: integer, limit: integer, nextCursor: NEXT_CURSOR }, [
  'start',
  'limit',
  'nextCursor',
]);
