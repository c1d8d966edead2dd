import { AuthorizationCode, OAuthClient, OAuthToken, parseScopes, PersonalAccessToken, User, UserProps } from '@lnk/identity/domain';
import { bool, Row, text, textArray, textOrNull, timestamp, timestampOrNull } from '@lnk/shared/database';

// How one row of each identity table becomes its domain object. Scopes are stored as text and checked
// again on the way out (parseScopes), so a scope the code no longer knows fails the read.

/** The users columns an account is made of (the two-factor enrolment columns are read on their own). */
const scopesOf = (r: Row) => parseScopes(textArray(r, 'scopes'));

export const USER_COLUMNS =
  'id, email, name, password_hash, is_verified, is_active, two_factor_secret, email_changed_at, created_at, updated_at';

const userProps = (r: Row): UserProps => ({
  id: text(r, 'id'),
  email: text(r, 'email'),
  name: text(r, 'name'),
  passwordHash: textOrNull(r, 'password_hash'),
  isVerified: bool(r, 'is_verified'),
  isActive: bool(r, 'is_active'),
  twoFactorSecret: textOrNull(r, 'two_factor_secret'),
  emailChangedAt: timestampOrNull(r, 'email_changed_at'),
  createdAt: timestamp(r, 'created_at'),
  updatedAt: timestamp(r, 'updated_at'),
});
export const toUser = (r: Row) => new User(userProps(r));

export const toOAuthClient = (r: Row) =>
  new OAuthClient({
    id: text(r, 'id'),
    clientId: text(r, 'client_id'),
    secretHash: textOrNull(r, 'secret_hash'),
    ownerId: textOrNull(r, 'owner_id'),
    requestedBy: textOrNull(r, 'requested_by'),
    name: text(r, 'name'),
    description: text(r, 'description'),
    scopes: scopesOf(r),
    redirectUris: textArray(r, 'redirect_uris'),
    isFirstParty: bool(r, 'is_first_party'),
    isActive: bool(r, 'is_active'),
    createdAt: timestamp(r, 'created_at'),
    updatedAt: timestamp(r, 'updated_at'),
  });

export const toOAuthToken = (r: Row) =>
  new OAuthToken({
    id: text(r, 'id'),
    familyId: text(r, 'family_id'),
    userId: text(r, 'user_id'),
    clientId: text(r, 'client_id'),
    scopes: scopesOf(r),
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

export const toPersonalAccessToken = (r: Row) =>
  new PersonalAccessToken({
    id: text(r, 'id'),
    userId: text(r, 'user_id'),
    name: text(r, 'name'),
    description: text(r, 'description'),
    scopes: scopesOf(r),
    tokenHash: text(r, 'token_hash'),
    lastUsedAt: timestampOrNull(r, 'last_used_at'),
    expiresAt: timestampOrNull(r, 'expires_at'),
    createdAt: timestamp(r, 'created_at'),
    updatedAt: timestamp(r, 'updated_at'),
  });

export const toAuthorizationCode = (r: Row) =>
  new AuthorizationCode({
    id: text(r, 'id'),
    codeHash: text(r, 'code_hash'),
    clientId: text(r, 'client_id'),
    userId: text(r, 'user_id'),
    redirectUri: text(r, 'redirect_uri'),
    scopes: scopesOf(r),
    codeChallenge: textOrNull(r, 'code_challenge'),
    codeChallengeMethod: textOrNull(r, 'code_challenge_method') === 'S256' ? 'S256' : null,
    expiresAt: timestamp(r, 'expires_at'),
    consumedAt: timestampOrNull(r, 'consumed_at'),
    createdAt: timestamp(r, 'created_at'),
  });
