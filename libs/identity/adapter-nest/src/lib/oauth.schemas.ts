import { boolean, described, id, integer, named, object, oneOfValues, string, USAGE } from '@lnk/shared/http';

const TOKEN_FIELDS = { access_token: string, refresh_token: string, token_type: oneOfValues('Bearer'), expires_in: integer, scope: string };
/** The token response of RFC 6749 section 5.1. */
export const TokenResponseSchema = named('TokenResponse', object(TOKEN_FIELDS));
/** Spec 2.6: the token response with the signed-in user, and the account limits for the password grant. */
export const SignInSchema = named(
  'SignIn',
  object(
    {
      ...TOKEN_FIELDS,
      user: described(
        object({ id, email: string, name: string }, ['email', 'name']),
        'The account signed in: `email` and `name` only when the granted scopes include user:read',
      ),
      limits: object({ domains: USAGE, links: USAGE }),
    },
    ['limits'],
  ),
);
export const IntrospectionSchema = named(
  'Introspection',
  described(
    object(
      { active: boolean, token_type: string, scope: string, client_id: string, username: string, sub: string, exp: integer, iat: integer },
      ['token_type', 'scope', 'client_id', 'username', 'sub', 'exp', 'iat'],
    ),
    'Only `active` unless the client the token was issued to asks, authenticated with its ' +
      "secret; `username` (the account's e-mail) only when the token carries user:read",
  ),
);

export const RevokedSchema = object({ revoked: boolean });
export const AuthorizationRedirectSchema = object({ redirect_url: string });
/** The RFC 7009 answer to a form-encoded revocation: an empty object. */
export const EmptySchema = named('EmptyObject', object({}));
