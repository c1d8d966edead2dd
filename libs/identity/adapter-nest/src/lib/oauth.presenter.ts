import type { AccountLimits, IssuedTokens, User } from '@lnk/identity/domain';
import { accountSeenWith } from '@lnk/identity/domain';
import type { Static } from '@lnk/shared/http';
import type { SignInSchema, TokenResponseSchema } from './oauth.schemas';

/** The token response of RFC 6749 section 5.1. */
export function presentTokens(tokens: IssuedTokens): Static<typeof TokenResponseSchema> {
  return {
    access_token: tokens.accessToken,
    refresh_token: tokens.refreshToken,
    token_type: 'Bearer',
    expires_in: tokens.expiresIn,
    scope: tokens.scopes.join(' '),
  };
}

/**
 * Spec 2.6: the token response with the signed-in user, and the account limits for the password grant.
 * The user's address and name only when the tokens carry `user:read`: an app granted `links:read`
 * learns no more of the account by signing in than its tokens could read.
 */
export function presentSignIn(tokens: IssuedTokens, user: User, limits?: AccountLimits): Static<typeof SignInSchema> {
  return {
    ...presentTokens(tokens),
    user: accountSeenWith(user, tokens.scopes),
    ...(limits ? { limits: { domains: limits.domains, links: limits.links } } : {}),
  };
}
