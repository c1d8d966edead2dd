import { Clock } from '@lnk/shared/kernel';
import { OAuthClient } from '../model/oauth-client.entity';
import { Principal } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { managedClient } from '../services/managed-client';

/** A new secret, shown once; the old one stops working at once. */
export class RegenerateClientSecretUseCase {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly secrets: SecretGenerator,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, id: string): Promise<{ client: OAuthClient; clientSecret: string }> {
    const client = await managedClient(this.clients, principal, id);
    const clientSecret = this.secrets.generate(32);
    const updated = new OAuthClient({ ...client.toProps(), secretHash: this.hasher.hash(clientSecret), updatedAt: this.clock.now() });
    await this.clients.update(updated);
    return { client: updated, clientSecret };
  }
}
