import { NotFoundError } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { RevocationListener } from '../ports/revocation-listener';
import { managedClient } from '../services/managed-client';

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
