import { EntitySchema } from 'typeorm';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  isVerified: boolean;
  isActive: boolean;
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
    createdAt: { name: 'created_at', type: 'timestamptz', precision: 3 },
    updatedAt: { name: 'updated_at', type: 'timestamptz', precision: 3 },
  },
});

export interface OAuthClientRow {
  id: string;
  clientId: string;
  secretHash: string;
  ownerId: string;
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
    secretHash: { name: 'secret_hash', type: 'char', length: 64 },
    ownerId: { name: 'owner_id', type: 'char', length: 24 },
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
