import { Page, PageRequest } from '@lnk/shared/kernel';
import { OAuthClient } from '../model/oauth-client.entity';

export abstract class OAuthClientRepository {
  abstract insert(client: OAuthClient): Promise<void>;
  abstract findByClientId(clientId: string): Promise<OAuthClient | null>;
  abstract findById(id: string): Promise<OAuthClient | null>;
  /** The owner's client; never a first-party client, which no account owns. */
  abstract findOfOwner(ownerId: string, id: string): Promise<OAuthClient | null>;
  /** The owner's clients (never first-party ones), newest first, `query` matching the name case-insensitively. */
  abstract listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<OAuthClient>>;
  /**
   * With `unchangedSince`, the write is made only if the client's updatedAt is still that (one conditional
   * statement: If-Match). False when nothing was written: the client is gone, or another write came since.
   */
  abstract update(client: OAuthClient, unchangedSince?: Date): Promise<boolean>;
  /** Deletes the owner's client (never a first-party one) and every token issued through it. */
  abstract deleteOfOwner(ownerId: string, id: string): Promise<boolean>;
}
