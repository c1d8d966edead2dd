import { Page, PageRequest } from '@lnk/shared/kernel';
import { OAuthClient } from '../model/oauth-client.entity';
import { OperatorDirectory } from '../ports/operator-directory';

/*
 * An operator's use case: what the operator (the CLI on the server, who holds the database) does to
 * accounts. No HTTP route reaches it: it takes no Principal because the operator vouches for what it asks.
 */

/** The service's own clients, never with their secrets (only hashes are kept). */
export class ListFirstPartyClientsUseCase {
  constructor(private readonly directory: OperatorDirectory) {}

  execute(page: PageRequest): Promise<Page<OAuthClient>> {
    return this.directory.listFirstPartyClients(page);
  }
}
