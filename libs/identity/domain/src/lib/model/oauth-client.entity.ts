import { EntityOf, ValidationError } from '@lnk/shared/kernel';
import { Scope } from './scope';

export interface OAuthClientProps {
  id: string;
  clientId: string;
  /** Null for a public client (a browser or native app that cannot keep a secret): PKCE stands in for it. */
  secretHash: string | null;
  /** The user who manages the client; null for first-party clients, which belong to the service. */
  ownerId: string | null;
  /** For first-party clients, the account the operator made it for: a record only, it grants nothing. */
  requestedBy: string | null;
  name: string;
  description: string;
  scopes: Scope[];
  redirectUris: string[];
  /** Made by an operator (CLI): may use the password grant for any account. */
  isFirstParty: boolean;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Redirect URIs are absolute https URLs; plain http only for loopback, as for native apps (RFC 8252). */
export function checkRedirectUris(values: readonly unknown[], field = 'redirectUris'): string[] {
  return values.map((value, index) => {
    const name = `${field}.${index}`;
    if (typeof value !== 'string') throw ValidationError.field(name, 'redirect URI must be a string');
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw ValidationError.field(name, 'redirect URI must be an absolute URL');
    }
    if (url.hash) throw ValidationError.field(name, 'redirect URI must not have a fragment');
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
    if (!secure) throw ValidationError.field(name, 'redirect URI must use https (http only for localhost)');
    return value;
  });
}

export function checkClientName(value: unknown, field = 'name'): string {
  if (typeof value !== 'string' || value.trim() === '') throw ValidationError.field(field, 'name is required');
  if (value.trim().length > 100) throw ValidationError.field(field, 'name must be at most 100 characters');
  return value.trim();
}

export class OAuthClient extends EntityOf<OAuthClientProps>()(
  'id',
  'clientId',
  'secretHash',
  'ownerId',
  'requestedBy',
  'name',
  'description',
  'isFirstParty',
  'isActive',
  'createdAt',
  'updatedAt',
) {
  /** A confidential client has a secret and must present it wherever a grant allows it (RFC 6749 2.3). */
  get isConfidential(): boolean {
    return this.props.secretHash !== null;
  }
  /** Whether this account manages the client through the API; never true for a first-party client. */
  isManagedBy(userId: string): boolean {
    return !this.props.isFirstParty && this.props.ownerId === userId;
  }
  /** First-party clients may sign in any account; a client a user made, only its owner. */
  maySignIn(userId: string): boolean {
    return this.props.isFirstParty || this.props.ownerId === userId;
  }
  get scopes(): Scope[] {
    return [...this.props.scopes];
  }
  get redirectUris(): string[] {
    return [...this.props.redirectUris];
  }

  toProps(): OAuthClientProps {
    return { ...this.props, scopes: [...this.props.scopes], redirectUris: [...this.props.redirectUris] };
  }
}
