import { OAuthClient } from '../model/oauth-client.entity';
import { OAuthError } from '../model/oauth-error';
import { parseScopes, Scope } from '../model/scope';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { SecretHasher } from '../ports/secret-hasher';

/** Finds the client a grant names and, when a secret is presented (or required), checks it. */
export class ClientAuthenticator {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly hasher: SecretHasher,
  ) {}

  async authenticate(clientId: string | undefined, clientSecret: string | undefined, options: { secretRequired: boolean }): Promise<OAuthClient> {
    const client = clientId ? await this.clients.findByClientId(clientId) : null;
    if (!client || !client.isActive) throw new OAuthError('invalid_client', 'Unknown or inactive client');
    if (clientSecret !== undefined || options.secretRequired) {
      if (!clientSecret || !this.hasher.matches(clientSecret, client.secretHash)) throw new OAuthError('invalid_client', 'Client authentication failed');
    }
    return client;
  }
}

/** The scopes a grant gets: those asked for, all within the allowed set; by default the whole set. */
export function grantScopes(requested: string | undefined, allowed: readonly Scope[]): Scope[] {
  if (requested === undefined || requested.trim() === '') return [...allowed];
  const names = requested.trim().split(/\s+/);
  let scopes: Scope[];
  try {
    scopes = parseScopes(names, 'scope');
  } catch {
    throw new OAuthError('invalid_scope', `Unknown scope in "${requested}"`);
  }
  const outside = scopes.filter((s) => !allowed.includes(s));
  if (outside.length) throw new OAuthError('invalid_scope', `Scope not allowed for this client: ${outside.join(' ')}`);
  return scopes;
}
