import { AuthorizationCode, OAuthClient, OAuthToken, parseScopes, PersonalAccessToken, User, UserProps } from '@lnk/identity/domain';
import { bool, Row, text, textArray, textOrNull, timestamp, timestampOrNull } from '@lnk/shared/database';

// How one row of each identity table becomes its domain object. Scopes are stored as text and checked
// again on the way out (parseScopes), so a scope the code no longer knows fails the read.

/** The users columns an account is made of (the two-factor enrolment columns are read on their own). */
export const USER_COLUMNS = 'id, email, name, password_hash, is_verified, is_active, two_factor_secret, pending_email, created_at, updated_at';

const userProps = (r: Row): UserProps => ({
  id: text(r, 'id'),
  email: text(r, 'email'),
  name: text(r, 'name'),
  passwordHash: textOrNull(r, 'password_hash'),
  isVerified: bool(r, 'is_verified'),
  isActive: bool(r, 'is_active'),
  twoFactorSecret: textOrNull(r, 'two_factor_secret'),
  pendingEmail: textOrNull(r, 'pending_email'),
  createdAt: timestamp(r, 'created_at'),
  updatedAt: timestamp(r, 'updated_at'),
});
export const toUser = (r: Row) => new User(userProps(r));

const oauthClientProps = (r: Row) => ({
  id: text(r, 'id'),
  clientId: text(r, 'client_id'),
  secretHash: textOrNull(r, 'secret_hash'),
  ownerId: textOrNull(r, 'owner_id'),
  requestedBy: textOrNull(r, 'requested_by'),
  name: text(r, 'name'),
  description: text(r, 'description'),
  scopes: textArray(r, 'scopes'),
  redirectUris: textArray(r, 'redirect_uris'),
  isFirstParty: bool(r, 'is_first_party'),
  isActive: bool(r, 'is_active'),
  createdAt: timestamp(r, 'created_at'),
  updatedAt: timestamp(r, 'updated_at'),
});
export function toOAuthClient(r: Row): OAuthClient {
  const p = oauthClientProps(r);
  return new OAuthClient({ ...p, scopes: parseScopes(p.scopes) });
}

const oauthTokenProps = (r: Row) => ({
  id: text(r, 'id'),
  familyId: text(r, 'family_id'),
  userId: text(r, 'user_id'),
  clientId: text(r, 'client_id'),
  scopes: textArray(r, 'scopes'),
  accessHash: text(r, 'access_hash'),
  refreshHash: text(r, 'refresh_hash'),
  accessExpiresAt: timestamp(r, 'access_expires_at'),
  refreshExpiresAt: timestamp(r, 'refresh_expires_at'),
  authorizationCodeId: textOrNull(r, 'authorization_code_id'),
  authTime: timestampOrNull(r, 'auth_time'),
  rotatedAt: timestampOrNull(r, 'rotated_at'),
  revokedAt: timestampOrNull(r, 'revoked_at'),
  createdAt: timestamp(r, 'created_at'),
});
export function toOAuthToken(r: Row): OAuthToken {
  const p = oauthTokenProps(r);
  return new OAuthToken({ ...p, scopes: parseScopes(p.scopes) });
}

const personalTokenProps = (r: Row) => ({
  id: text(r, 'id'),
  userId: text(r, 'user_id'),
  name: text(r, 'name'),
  description: text(r, 'description'),
  scopes: textArray(r, 'scopes'),
  tokenHash: text(r, 'token_hash'),
  lastUsedAt: timestampOrNull(r, 'last_used_at'),
  expiresAt: timestampOrNull(r, 'expires_at'),
  createdAt: timestamp(r, 'created_at'),
  updatedAt: timestamp(r, 'updated_at'),
});
export function toPersonalAccessToken(r: Row): PersonalAccessToken {
  const p = personalTokenProps(r);
  return new PersonalAccessToken({ ...p, scopes: parseScopes(p.scopes) });
}

const authorizationCodeProps = (r: Row) => ({
  id: text(r, 'id'),
  codeHash: text(r, 'code_hash'),
  clientId: text(r, 'client_id'),
  userId: text(r, 'user_id'),
  redirectUri: text(r, 'redirect_uri'),
  scopes: textArray(r, 'scopes'),
  codeChallenge: textOrNull(r, 'code_challenge'),
  codeChallengeMethod: textOrNull(r, 'code_challenge_method'),
  expiresAt: timestamp(r, 'expires_at'),
  consumedAt: timestampOrNull(r, 'consumed_at'),
  createdAt: timestamp(r, 'created_at'),
});
export function toAuthorizationCode(r: Row): AuthorizationCode {
  const p = authorizationCodeProps(r);
  return new AuthorizationCode({ ...p, scopes: parseScopes(p.scopes), codeChallengeMethod: p.codeChallengeMethod === 'S256' ? 'S256' : null });
}
