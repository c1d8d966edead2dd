import { boolean, dateTime, id, named, nullable, object, string, strings } from '../../openapi/schema';

/** A personal access token as lists show it (spec 2.4); never its value but at creation. */
const PAT_FIELDS = { id, name: string, description: nullable(string), scopes: strings, lastUsedAt: nullable(dateTime), expiresAt: nullable(dateTime), createdAt: dateTime };
const { lastUsedAt: _lastUsedAt, ...withoutLastUse } = PAT_FIELDS;
export const PersonalAccessTokenSchema = named('PersonalAccessToken', object(PAT_FIELDS));
export const PersonalAccessTokenDetailSchema = named('PersonalAccessTokenDetail', object({ ...PAT_FIELDS, isActive: boolean, isExpired: boolean, updatedAt: dateTime }));
export const CreatedPersonalAccessTokenSchema = named('CreatedPersonalAccessToken', object({ ...withoutLastUse, token: string }));
