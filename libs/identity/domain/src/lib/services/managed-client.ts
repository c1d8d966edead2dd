import { NotFoundError } from '@lnk/shared/kernel';
import { OAuthClient } from '../model/oauth-client.entity';
import { Principal } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';

/** A client this account manages; first-party clients belong to the service and are not found here. */
export async function managedClient(clients: OAuthClientRepository, principal: Principal, id: string): Promise<OAuthClient> {
  const client = await clients.findOfOwner(principal.userId, id);
  if (!client || !client.isManagedBy(principal.userId)) throw new NotFoundError('OAuth client');
  return client;
}
