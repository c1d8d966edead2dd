import { Clock, NotFoundError, Page, PageRequest } from '@lnk/shared/kernel';
import { checkClientName, checkRedirectUris, OAuthClient } from '../model/oauth-client.entity';
import { parseScopes } from '../model/scope';
import { Principal } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository } from '../ports/token.repositories';

export class ListOAuthClientsUseCase {
  constructor(private readonly clients: OAuthClientRepository) {}

  execute(principal: Principal, query: string | undefined, page: PageRequest): Promise<Page<OAuthClient>> {
    return this.clients.listOfOwner(principal.userId, query?.trim() || undefined, page);
  }
}

/** A client this account manages; first-party clients belong to the service and are not found here. */
async function managedClient(clients: OAuthClientRepository, principal: Principal, id: string): Promise<OAuthClient> {
  const client = await clients.findOfOwner(principal.userId, id);
  if (!client || !client.isManagedBy(principal.userId)) throw new NotFoundError('OAuth client');
  return client;
}

export class GetOAuthClientUseCase {
  constructor(private readonly clients: OAuthClientRepository) {}

  execute(principal: Principal, id: string): Promise<OAuthClient> {
    return managedClient(this.clients, principal, id);
  }
}

export interface UpdateOAuthClientCommand {
  name?: string;
  description?: string;
  scopes?: string[];
  redirectUris?: string[];
  isActive?: boolean;
}

/** Changes a client; deactivating it ends every token issued through it. */
export class UpdateOAuthClientUseCase {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly tokens: OAuthTokenRepository,
    private readonly revocations: RevocationListener,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, id: string, command: UpdateOAuthClientCommand): Promise<OAuthClient> {
    const client = await managedClient(this.clients, principal, id);
    const props = client.toProps();
    const now = this.clock.now();
    const updated = new OAuthClient({
      ...props,
      name: command.name !== undefined ? checkClientName(command.name) : props.name,
      description: command.description !== undefined ? command.description.trim() : props.description,
      scopes: command.scopes !== undefined ? parseScopes(command.scopes) : props.scopes,
      redirectUris: command.redirectUris !== undefined ? checkRedirectUris(command.redirectUris) : props.redirectUris,
      isActive: command.isActive ?? props.isActive,
      updatedAt: now,
    });
    await this.clients.update(updated);
    if (props.isActive && !updated.isActive) {
      await this.tokens.revokeAllOfClient(client.id, now);
      this.revocations.tokensRevoked();
    }
    return updated;
  }
}

/** Deletes a client and, with it, every token issued through it. */
export class DeleteOAuthClientUseCase {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly revocations: RevocationListener,
  ) {}

  async execute(principal: Principal, id: string): Promise<void> {
    await managedClient(this.clients, principal, id);
    if (!(await this.clients.deleteOfOwner(principal.userId, id))) throw new NotFoundError('OAuth client');
    this.revocations.tokensRevoked();
  }
}

/** A new secret, shown once; the old one stops working at once. */
export class RegenerateClientSecretUseCase {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly secrets: SecretGenerator,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, id: string): Promise<{ client: OAuthClient; clientSecret: string }> {
    const client = await managedClient(this.clients, principal, id);
    const clientSecret = this.secrets.generate(32);
    const updated = new OAuthClient({ ...client.toProps(), secretHash: this.hasher.hash(clientSecret), updatedAt: this.clock.now() });
    await this.clients.update(updated);
    return { client: updated, clientSecret };
  }
}
