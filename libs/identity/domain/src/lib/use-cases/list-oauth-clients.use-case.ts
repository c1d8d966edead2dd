import { Page, PageRequest } from '@lnk/shared/kernel';
import { OAuthClient } from '../model/oauth-client.entity';
import { Principal } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';

export class ListOAuthClientsUseCase {
  constructor(private readonly clients: OAuthClientRepository) {}

  execute(principal: Principal, query: string | undefined, page: PageRequest): Promise<Page<OAuthClient>> {
    return this.clients.listOfOwner(principal.userId, query?.trim() || undefined, page);
  }
}
