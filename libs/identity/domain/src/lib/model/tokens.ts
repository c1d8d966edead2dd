import { Scope } from './scope';

/** Token values carry a prefix so a presented value is looked up in the right place. */
export const TOKEN_PREFIX = { access: 'at_', refresh: 'rt_', personal: 'tkn_', code: 'ac_' } as const;

/** 256 bits of CSPRNG output behind every token value. */
export const TOKEN_BYTES = 32;

export type TokenKind = 'access_token' | 'refresh_token' | 'personal_access_token';

export function kindOf(value: string): TokenKind | null {
  if (value.startsWith(TOKEN_PREFIX.access)) return 'access_token';
  if (value.startsWith(TOKEN_PREFIX.refresh)) return 'refresh_token';
  if (value.startsWith(TOKEN_PREFIX.personal)) return 'personal_access_token';
  return null;
}

/** Who is calling, once a bearer token has been accepted. */
export interface Principal {
  userId: string;
  scopes: Scope[];
  via: 'oauth' | 'pat';
  /** The id of the OAuth token or PAT that authenticated the request. */
  tokenId: string;
  /** Internal id of the OAuth client, for OAuth tokens. */
  clientId: string | null;
  /**
   * When what authenticated the request ends for good: a PAT's expiry (null: never), or for an OAuth
   * token the expiry of the refresh token issued with it (the sign-in session, not the hour-long access
   * token). A PAT made by a PAT may not outlive it; one made through a sign-in is not bound by the
   * session (spec 2.4: a PAT ends at its own `expiresAt` only).
   */
  grantExpiresAt: Date | null;
  /**
   * When the user last proved who they are for this token: the password or identity-provider sign-in
   * that started its family. Null for PATs and for tokens an app got through the authorization-code flow.
   */
  authTime: Date | null;
}

export interface OAuthTokenProps {
  id: string;
  /** Every token made by refreshing another shares the first one's family. */
  familyId: string;
  userId: string;
  clientId: string;
  scopes: Scope[];
  accessHash: string;
  refreshHash: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
  authorizationCodeId: string | null;
  /** When the sign-in that started the family happened (a refresh keeps it); null when not a sign-in by the user. */
  authTime: Date | null;
  /** When its refresh token was exchanged for a new pair; presenting it again is replay. */
  rotatedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export class OAuthToken {
  constructor(readonly props: OAuthTokenProps) {}

  isAccessActive(now: Date): boolean {
    return !this.props.revokedAt && this.props.accessExpiresAt > now;
  }

  isRefreshUsable(now: Date): boolean {
    return !this.props.revokedAt && !this.props.rotatedAt && this.props.refreshExpiresAt > now;
  }
}

export interface PersonalAccessTokenProps {
  id: string;
  userId: string;
  name: string;
  description: string;
  scopes: Scope[];
  tokenHash: string;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export class PersonalAccessToken {
  constructor(readonly props: PersonalAccessTokenProps) {}

  isExpired(now: Date): boolean {
    return this.props.expiresAt !== null && this.props.expiresAt <= now;
  }

  isActive(now: Date): boolean {
    return !this.isExpired(now);
  }
}

export interface AuthorizationCodeProps {
  id: string;
  codeHash: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: Scope[];
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | null;
  expiresAt: Date;
  consumedAt: Date | null;
  createdAt: Date;
}

export class AuthorizationCode {
  constructor(readonly props: AuthorizationCodeProps) {}
}
