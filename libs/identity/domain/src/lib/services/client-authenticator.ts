import { OAuthClient } from '../model/oauth-client.entity';
import { OAuthError } from '../model/oauth-error';
import { parseScopes, Scope } from '../model/scope';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { SecretHasher } from '../ports/secret-hasher';

/**
 * Finds the client a request names. A presented secret is always checked. Where the grant allows client
 * authentication (password, code exchange, refresh, introspection), `mustAuthenticate` makes a
 * confidential client (one with a secret) present it (RFC 6749 sections 2.3.1, 4.1.3, 4.3.2 and 6): a
 * stolen refresh token or code, or a client_id, is then useless without the secret. A public client has
 * no secret; PKCE stands in for it.
 */
export class ClientAuthenticator {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly hasher: SecretHasher,
  ) {}

  async authenticate(
    clientId: string | undefined,
    clientSecret: string | undefined,
    options: { mustAuthenticate: boolean },
  ): Promise<OAuthClient> {
    const client = clientId ? await this.clients.findByClientId(clientId) : null;
    if (!client || !client.isActive) throw new OAuthError('invalid_client', 'Unknown or inactive client');
    const secretHash = client.secretHash;
    if (clientSecret !== undefined) {
      if (secretHash === null || !this.hasher.matches(clientSecret, secretHash))
        throw new OAuthError('invalid_client', 'Client authentication failed');
    } else if (options.mustAuthenticate && secretHash !== null) {
      throw new OAuthError('invalid_client', 'This client must authenticate with its client secret');
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
