import { Clock, NotFoundError, PreconditionFailedError } from '@lnk/shared/kernel';
import { checkClientName, checkRedirectUris, OAuthClient } from '../model/oauth-client.entity';
import { parseScopes } from '../model/scope';
import { Principal } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { RevocationListener } from '../ports/revocation-listener';
import { OAuthTokenRepository } from '../ports/token.repositories';
import { managedClient } from '../services/managed-client';

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

  /**
   * `expected`: the change is made only if the client is still as the caller last read it (If-Match): it
   * is asked of the client as read now, and the write is conditional on no other write coming since that
   * read, so of two changes made from one version, the second is refused (PRECONDITION_FAILED).
   */
  async execute(
    principal: Principal,
    id: string,
    command: UpdateOAuthClientCommand,
    expected?: (current: OAuthClient) => boolean,
  ): Promise<OAuthClient> {
    const client = await managedClient(this.clients, principal, id);
    if (expected && !expected(client)) throw new PreconditionFailedError('OAuth client');
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
    // Not written: another write came since the read (with a condition), or the client is gone.
    if (!(await this.clients.update(updated, expected ? props.updatedAt : undefined)))
      throw expected ? new PreconditionFailedError('OAuth client') : new NotFoundError('OAuth client');
    if (props.isActive && !updated.isActive) {
      await this.tokens.revokeAllOfClient(client.id, now);
      this.revocations.tokensRevoked();
    }
    return updated;
  }
}
