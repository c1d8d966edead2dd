import { Clock, IdGenerator, NotFoundError } from '@lnk/shared/kernel';
import { checkClientName, checkRedirectUris, OAuthClient } from '../model/oauth-client.entity';
import { parseScopes, SCOPES } from '../model/scope';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { UserRepository } from '../ports/user.repository';

export interface CreateOAuthClientCommand {
  ownerId: string;
  name: string;
  description?: string;
  /** Defaults to every scope. */
  scopes?: readonly string[];
  redirectUris?: readonly string[];
  isFirstParty: boolean;
}

export interface CreatedOAuthClient {
  client: OAuthClient;
  /** The plain secret, shown once; only its hash is stored. */
  clientSecret: string;
}

export class CreateOAuthClientUseCase {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly users: UserRepository,
    private readonly secrets: SecretGenerator,
    private readonly hasher: SecretHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateOAuthClientCommand): Promise<CreatedOAuthClient> {
    const name = checkClientName(command.name);
    const scopes = parseScopes(command.scopes ?? SCOPES);
    const redirectUris = checkRedirectUris(command.redirectUris ?? []);
    if (!(await this.users.findById(command.ownerId))) throw new NotFoundError('User');
    const clientSecret = this.secrets.generate(32);
    const now = this.clock.now();
    const client = new OAuthClient({
      id: this.ids.next(),
      clientId: `cl_${this.secrets.generate(16)}`,
      secretHash: this.hasher.hash(clientSecret),
      ownerId: command.ownerId,
      name,
      description: command.description?.trim() ?? '',
      scopes,
      redirectUris,
      isFirstParty: command.isFirstParty,
      isActive: true,
      createdAt: now,
      updatedAt: now,
    });
    await this.clients.insert(client);
    return { client, clientSecret };
  }
}
