import { EntitySchema } from 'typeorm';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  isVerified: boolean;
  isActive: boolean;
  twoFactorSecret: string | null;
  pendingEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const UserSchema = new EntitySchema<UserRow>({
  name: 'User',
  tableName: 'users',
  columns: {
    id: { type: 'char', length: 24, primary: true },
    email: { type: 'varchar', length: 254 },
    name: { type: 'varchar', length: 100 },
    passwordHash: { name: 'password_hash', type: 'text', nullable: true },
    isVerified: { name: 'is_verified', type: 'boolean' },
    isActive: { name: 'is_active', type: 'boolean' },
    twoFactorSecret: { name: 'two_factor_secret', type: 'text', nullable: true },
    pendingEmail: { name: 'pending_email', type: 'varchar', length: 254, nullable: true },
    createdAt: { name: 'created_at', type: 'timestamptz', precision: 3 },
    updatedAt: { name: 'updated_at', type: 'timestamptz', precision: 3 },
  },
});

export interface OAuthClientRow {
  id: string;
  clientId: string;
  secretHash: string | null;
  ownerId: string | null;
  requestedBy: string | null;
  name: string;
  description: string;
  scopes: string[];
  redirectUris: string[];
  isFirstParty: boolean;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const OAuthClientSchema = new EntitySchema<OAuthClientRow>({
  name: 'OAuthClient',
  tableName: 'oauth_clients',
  columns: {
    id: { type: 'char', length: 24, primary: true },
    clientId: { name: 'client_id', type: 'varchar', length: 64 },
    secretHash: { name: 'secret_hash', type: 'char', length: 64, nullable: true },
    ownerId: { name: 'owner_id', type: 'char', length: 24, nullable: true },
    requestedBy: { name: 'requested_by', type: 'char', length: 24, nullable: true },
    name: { type: 'varchar', length: 100 },
    description: { type: 'varchar', length: 500 },
    scopes: { type: 'text', array: true },
    redirectUris: { name: 'redirect_uris', type: 'text', array: true },
    isFirstParty: { name: 'is_first_party', type: 'boolean' },
    isActive: { name: 'is_active', type: 'boolean' },
    createdAt: { name: 'created_at', type: 'timestamptz', precision: 3 },
    updatedAt: { name: 'updated_at', type: 'timestamptz', precision: 3 },
  },
});

const ts = (name: string, nullable = false) => ({ name, type: 'timestamptz' as const, precision: 3, nullable });

export interface OAuthTokenRow {
  id: string;
  familyId: string;
  userId: string;
  clientId: string;
  scopes: string[];
  accessHash: string;
  refreshHash: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
  authorizationCodeId: string | null;
  authTime: Date | null;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export const OAuthTokenSchema = new EntitySchema<OAuthTokenRow>({
  name: 'OAuthToken',
  tableName: 'oauth_tokens',
  columns: {
    id: { type: 'char', length: 24, primary: true },
    familyId: { name: 'family_id', type: 'char', length: 24 },
    userId: { name: 'user_id', type: 'char', length: 24 },
    clientId: { name: 'client_id', type: 'char', length: 24 },
    scopes: { type: 'text', array: true },
    accessHash: { name: 'access_hash', type: 'char', length: 64 },
    refreshHash: { name: 'refresh_hash', type: 'char', length: 64 },
    accessExpiresAt: ts('access_expires_at'),
    refreshExpiresAt: ts('refresh_expires_at'),
    authorizationCodeId: { name: 'authorization_code_id', type: 'char', length: 24, nullable: true },
    authTime: ts('auth_time', true),
    rotatedAt: ts('rotated_at', true),
    revokedAt: ts('revoked_at', true),
    createdAt: ts('created_at'),
  },
});

export interface PersonalAccessTokenRow {
  id: string;
  userId: string;
  name: string;
  description: string;
  scopes: string[];
  tokenHash: string;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const PersonalAccessTokenSchema = new EntitySchema<PersonalAccessTokenRow>({
  name: 'PersonalAccessToken',
  tableName: 'personal_access_tokens',
  columns: {
    id: { type: 'char', length: 24, primary: true },
    userId: { name: 'user_id', type: 'char', length: 24 },
    name: { type: 'varchar', length: 100 },
    description: { type: 'varchar', length: 500 },
    scopes: { type: 'text', array: true },
    tokenHash: { name: 'token_hash', type: 'char', length: 64 },
    lastUsedAt: ts('last_used_at', true),
    expiresAt: ts('expires_at', true),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
});

export interface AuthorizationCodeRow {
  id: string;
  codeHash: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: Date;
  consumedAt: Date | null;
  createdAt: Date;
}

export const AuthorizationCodeSchema = new EntitySchema<AuthorizationCodeRow>({
  name: 'AuthorizationCode',
  tableName: 'authorization_codes',
  columns: {
    id: { type: 'char', length: 24, primary: true },
    codeHash: { name: 'code_hash', type: 'char', length: 64 },
    clientId: { name: 'client_id', type: 'char', length: 24 },
    userId: { name: 'user_id', type: 'char', length: 24 },
    redirectUri: { name: 'redirect_uri', type: 'text' },
    scopes: { type: 'text', array: true },
    codeChallenge: { name: 'code_challenge', type: 'varchar', length: 128, nullable: true },
    codeChallengeMethod: { name: 'code_challenge_method', type: 'varchar', length: 10, nullable: true },
    expiresAt: ts('expires_at'),
    consumedAt: ts('consumed_at', true),
    createdAt: ts('created_at'),
  },
});
