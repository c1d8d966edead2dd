import { boolean, dateTime, described, id, integer, list, named, nullable, object, schema, string } from '@lnk/shared/http';
import { REDIRECT_TYPES, TARGET_DEVICES, UTM_FIELDS } from '@lnk/links/domain';
import type { LinkTargets, LinkUtm, RedirectType } from '@lnk/links/domain';

/** What a link shows in the list; its detail adds its tags (spec 2.10). */
const LINK_FIELDS = {
  id,
  title: nullable(string),
  slug: string,
  url: string,
  shortUrl: string,
  description: nullable(string),
  status: boolean,
  domainId: nullable(string),
  hasPassword: boolean,
  createdAt: dateTime,
  clicks: integer,
  updatedAt: dateTime,
};

const uri = schema<string>({ type: 'string', format: 'uri' });

/** The options of issue 18: each shown only when the link has it set, so a link without any reads as the spec's. */
const OPTION_FIELDS = {
  redirectType: schema<RedirectType>({ type: 'integer', enum: [...REDIRECT_TYPES], description: 'Shown when not 302 (the default).' }),
  expiresAt: described(dateTime, 'When the link expires; shown when set.'),
  expiredUrl: described(uri, 'Where visitors go once it expired (302); without it a 410 page.'),
  maxVisits: described(integer, 'Counted visits that reach the destination before the link expires; shown when set, with visitsUsed.'),
  visitsUsed: described(integer, 'Counted visits taken from maxVisits so far.'),
  utm: schema<LinkUtm>({
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(UTM_FIELDS.map((f) => [f, string])),
    description: 'UTM values added to the destination on every redirect.',
  }),
  targets: schema<LinkTargets>({
    type: 'object',
    additionalProperties: false,
    properties: {
      device: { type: 'object', additionalProperties: false, properties: Object.fromEntries(TARGET_DEVICES.map((d) => [d, uri])) },
      country: { type: 'object', additionalProperties: uri },
    },
    description: 'Destinations by country, then device, before url.',
  }),
};
const OPTIONAL = Object.keys(OPTION_FIELDS) as (keyof typeof OPTION_FIELDS)[];

/** Marked favourite: always in a list item, in a link's detail only when true (as the options). */
const isFavorite = described(boolean, 'Marked favourite (set by isFavorite in POST and PUT bodies).');

/** A link as one is answered (spec 2.10, with its tags and options), and the fields it may leave out. */
export const LINK_DETAIL_FIELDS = { ...LINK_FIELDS, tags: list(object({ id, name: string })), isFavorite, ...OPTION_FIELDS };
export const LINK_OPTIONAL_FIELDS: (keyof typeof LINK_DETAIL_FIELDS)[] = [...OPTIONAL, 'isFavorite'];

export const LinkSchema = named('Link', object(LINK_DETAIL_FIELDS, LINK_OPTIONAL_FIELDS));
export const LinkListItemSchema = named('LinkListItem', object({ ...LINK_FIELDS, isFavorite, ...OPTION_FIELDS }, OPTIONAL));
export const TagSchema = named('Tag', object({ id, name: string, isFavorite: boolean, createdAt: dateTime, linkCount: integer }));
