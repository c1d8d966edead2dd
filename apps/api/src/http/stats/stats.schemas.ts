import { dateTime, id, integer, named, nullable, object, string } from '../../openapi/schema';

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

/** `meta` of the statistics: the number of rows only. */
export const TOTAL_META = object({ total: integer });
