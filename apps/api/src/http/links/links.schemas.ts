import { boolean, dateTime, id, integer, list, named, nullable, object, string } from '../../openapi/schema';

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
export const LinkSchema = named('Link', object({ ...LINK_FIELDS, tags: list(object({ id, name: string })) }));
export const LinkListItemSchema = named('LinkListItem', object(LINK_FIELDS));
export const TagSchema = named('Tag', object({ id, name: string, isFavorite: boolean, createdAt: dateTime, linkCount: integer }));
