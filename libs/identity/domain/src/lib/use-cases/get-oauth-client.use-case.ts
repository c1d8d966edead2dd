import { OAuthClient } from '../model/oauth-client.entity';
import { Principal } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { managedClient } from '../services/managed-client';

export class GetOAuthClientUseCase {
  constructor(private readonly clients: OAuthClientRepository) {}

  execute(principal: Principal, id: string): Promise<OAuthClient> {
    return managedClient(this.clients, principal, id);
  }
}
