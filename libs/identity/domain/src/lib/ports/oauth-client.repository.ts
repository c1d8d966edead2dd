import { OAuthClient } from '../model/oauth-client.entity';

export abstract class OAuthClientRepository {
  abstract insert(client: OAuthClient): Promise<void>;
  abstract findByClientId(clientId: string): Promise<OAuthClient | null>;
}
