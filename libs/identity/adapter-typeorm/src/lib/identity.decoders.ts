import { AuthorizationCode, OAuthClient, OAuthToken, parseScopes, PersonalAccessToken, User, UserProps } from '@lnk/identity/domain';
import { bool, decoder, Decoder, nullable, Row, text, textArray, timestamp } from '@lnk/shared/database';

// How one row of each identity table becomes its domain object. Scopes are stored as text and checked
// again on the way out (parseScopes), so a scope the code no longer knows fails the read.

/** The users columns an account is made of (the two-factor enrolment columns are read on their own). */
export const USER_COLUMNS = 'id, email, name, password_hash, is_verified, is_active, two_factor_secret, pending_email, created_at, updated_at';

const userProps: Decoder<UserProps> = decoder({
  id: text,
  email: text,
  name: text,
  passwordHash: nullable(text),
  isVerified: bool,
  isActive: bool,
  twoFactorSecret: nullable(text),
  pendingEmail: nullable(text),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const toUser = (r: Row) => new User(userProps(r));

const oauthClientProps = decoder({
  id: text,
  clientId: text,
  secretHash: nullable(text),
  ownerId: nullable(text),
  requestedBy: nullable(text),
  name: text,
  description: text,
  scopes: textArray,
  redirectUris: textArray,
  isFirstParty: bool,
  isActive: bool,
  createdAt: timestamp,
  updatedAt: timestamp,
});
export function toOAuthClient(r: Row): OAuthClient {
  const p = oauthClientProps(r);
  return new OAuthClient({ ...p, scopes: parseScopes(p.scopes) });
}

const oauthTokenProps = decoder({
  id: text,
  familyId: text,
  userId: text,
  clientId: text,
  scopes: textArray,
  accessHash: text,
  refreshHash: text,
  accessExpiresAt: timestamp,
  refreshExpiresAt: timestamp,
  authorizationCodeId: nullable(text),
  authTime: nullable(timestamp),
  rotatedAt: nullable(timestamp),
  revokedAt: nullable(timestamp),
  createdAt: timestamp,
});
export function toOAuthToken(r: Row): OAuthToken {
  const p = oauthTokenProps(r);
  return new OAuthToken({ ...p, scopes: parseScopes(p.scopes) });
}

const personalTokenProps = decoder({
  id: text,
  userId: text,
  name: text,
  description: text,
  scopes: textArray,
  tokenHash: text,
  lastUsedAt: nullable(timestamp),
  expiresAt: nullable(timestamp),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export function toPersonalAccessToken(r: Row): PersonalAccessToken {
  const p = personalTokenProps(r);
  return new PersonalAccessToken({ ...p, scopes: parseScopes(p.scopes) });
}

const authorizationCodeProps = decoder({
  id: text,
  codeHash: text,
  clientId: text,
  userId: text,
  redirectUri: text,
  scopes: textArray,
  codeChallenge: nullable(text),
  codeChallengeMethod: nullable(text),
  expiresAt: timestamp,
  consumedAt: nullable(timestamp),
  createdAt: timestamp,
});
export function toAuthorizationCode(r: Row): AuthorizationCode {
  const p = authorizationCodeProps(r);
  return new AuthorizationCode({ ...p, scopes: parseScopes(p.scopes), codeChallengeMethod: p.codeChallengeMethod === 'S256' ? 'S256' : null });
}
