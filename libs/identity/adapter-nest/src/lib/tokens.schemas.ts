import { boolean, dateTime, described, id, integer, named, nullable, object, string, strings } from '@lnk/shared/http';

/** A personal access token as lists show it (spec 2.4); never its value but at creation. */
const PAT_FIELDS = {
  id,
  name: string,
  description: nullable(string),
  scopes: strings,
  lastUsedAt: nullable(dateTime),
  expiresAt: nullable(dateTime),
  createdAt: dateTime,
};
const { lastUsedAt: _lastUsedAt, ...withoutLastUse } = PAT_FIELDS;
export const PersonalAccessTokenSchema = named('PersonalAccessToken', object(PAT_FIELDS));
export const PersonalAccessTokenDetailSchema = named(
  'PersonalAccessTokenDetail',
  object({ ...PAT_FIELDS, isActive: boolean, isExpired: boolean, updatedAt: dateTime }),
);
export const CreatedPersonalAccessTokenSchema = named('CreatedPersonalAccessToken', object({ ...withoutLastUse, token: string }));
/** What POST /user/tokens/revoke-all did. */
export const RevokedTokensSchema = named(
  'RevokedPersonalAccessTokens',
  object({
    revoked: described(integer, 'How many personal access tokens were revoked'),
    keptTokenId: described(
      nullable(id),
      'The personal access token that made the request, left working (a request ' +
        'never revokes its own token); null when an OAuth token made it',
    ),
  }),
);
