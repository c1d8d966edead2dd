import { Page, PageRequest } from '@lnk/shared/kernel';
import { OAuthClient } from '../model/oauth-client.entity';
import { Scope } from '../model/scope';
import { OAuthClientRepository } from '../ports/oauth-client.repository';

/** The dashboard's client (apps/web, served at /app): public (PKCE, no secret), first-party, made by a migration. */
export const DASHBOARD_CLIENT_ID = 'lnk-dashboard';

/** Where the dashboard's authorization codes come back, under the service's public address. */
export const DASHBOARD_CALLBACK_PATH = '/app/auth/callback';

/** What configuration decides for a built-in client. */
export interface BuiltInClientSettings {
  redirectUris: readonly string[];
  scopes: readonly Scope[];
}

/**
 * The client repository with the settings of the service's own built-in clients taken from the running
 * configuration instead of their rows: the dashboard's redirect URI follows PUBLIC_BASE_URL and its scopes
 * the service's list, so neither goes stale when those change. The row is still what tokens and codes refer
 * to, and only a first-party row (which no account can make or change) gets the settings.
 */
export class WithBuiltInClients extends OAuthClientRepository {
  constructor(
    private readonly stored: OAuthClientRepository,
    private readonly builtIn: Readonly<Record<string, BuiltInClientSettings>>,
  ) {
    super();
  }

  insert(client: OAuthClient): Promise<void> {
    return this.stored.insert(client);
  }

  async findByClientId(clientId: string): Promise<OAuthClient | null> {
    return this.configured(await this.stored.findByClientId(clientId));
  }

  async findById(id: string): Promise<OAuthClient | null> {
    return this.configured(await this.stored.findById(id));
  }

  findOfOwner(ownerId: string, id: string): Promise<OAuthClient | null> {
    return this.stored.findOfOwner(ownerId, id);
  }

  listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<OAuthClient>> {
    return this.stored.listOfOwner(ownerId, query, page);
  }

  update(client: OAuthClient, unchangedSince?: Date): Promise<boolean> {
    return this.stored.update(client, unchangedSince);
  }

  deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    return this.stored.deleteOfOwner(ownerId, id);
  }

  private configured(client: OAuthClient | null): OAuthClient | null {
    if (!client?.isFirstParty || !Object.hasOwn(this.builtIn, client.clientId)) return client;
    const settings = this.builtIn[client.clientId];
    return new OAuthClient({ ...client.toProps(), redirectUris: [...settings.redirectUris], scopes: [...settings.scopes] });
  }
}
