import { dateTime, described, id, integer, named, nullable, object, string } from '@lnk/shared/http';

export const StatsValueSchema = named(
  'StatsValue',
  object({
    value: described(
      string,
      'A referrer host ((direct) without a Referer), an ISO 3166-1 alpha-2 country, desktop/mobile/tablet, a browser or OS ' +
        "family, or link/qr; (unknown) when not derivable, (other) for the visits beyond a day's 100 referrer hosts of a link.",
    ),
    visits: integer,
  }),
);

export const StatsIntervalSchema = named(
  'StatsInterval',
  object({ date: described(dateTime, 'The first day of the interval (a week starts on Monday), midnight UTC.'), visits: integer }),
);

export const StatsTopLinkSchema = named(
  'StatsTopLink',
  object({
    linkId: id,
    linkName: described(string, 'As of its latest counted visit in the period.'),
    domainId: nullable(string),
    domainName: string,
    visits: integer,
  }),
);

/** `meta` of the statistics views: the number of entries. */
export const COUNT_META = object({ total: integer });
