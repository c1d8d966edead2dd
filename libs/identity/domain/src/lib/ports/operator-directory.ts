import { Page, PageRequest } from '@lnk/shared/kernel';
import { OAuthClient } from '../model/oauth-client.entity';
import { User } from '../model/user.entity';

/**
 * What the operator (the CLI on the server) may list and no account may: every account, and the
 * service's own (first-party) clients. A port of its own, so no API path can reach these lists.
 */
export abstract class OperatorDirectory {
  /** Every account, oldest first (by creation time), so a page stays where it was while accounts are added. */
  abstract listUsers(page: PageRequest): Promise<Page<User>>;
  /** First-party clients, oldest first. */
  abstract listFirstPartyClients(page: PageRequest): Promise<Page<OAuthClient>>;
}
