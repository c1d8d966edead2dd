import { Clock, IdGenerator, NotFoundError } from '@lnk/shared/kernel';
import { checkClientName, checkRedirectUris, OAuthClient } from '../model/oauth-client.entity';
import { parseScopes, SCOPES } from '../model/scope';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { UserRepository } from '../ports/user.repository';

interface ClientFields {
  name: string;
  description?: string;
  /** Defaults to every scope. */
  scopes?: readonly string[];
  redirectUris?: readonly string[];
}

/**
 * A client a user makes through the API belongs to that user; a first-party client (made by the
 * operator) belongs to the service: no account owns it, so none can change, deactivate or delete it.
 */
export type CreateOAuthClientCommand = ClientFields &
  (
    | { isFirstParty: false; ownerId: string }
    | {
        isFirstParty: true;
        /** The account the operator made it for: recorded, grants nothing. */
        requestedBy?: string | null;
        /** A public client (browser or native app) gets no secret and must use PKCE for codes. */
        isPublic?: boolean;
      }
  );

export interface CreatedOAuthClient {
  client: OAuthClient;
  /** The plain secret, shown once; only its hash is stored. Null for a public client. */
  clientSecret: string | null;
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
    const userId = command.isFirstParty ? command.requestedBy : command.ownerId;
    if (userId && !(await this.users.findById(userId))) throw new NotFoundError('User');
    const clientSecret = command.isFirstParty && command.isPublic ? null : this.secrets.generate(32);
    const now = this.clock.now();
    const client = new OAuthClient({
      id: this.ids.next(),
      clientId: `cl_${this.secrets.generate(16)}`,
      secretHash: clientSecret === null ? null : this.hasher.hash(clientSecret),
      ownerId: command.isFirstParty ? null : command.ownerId,
      requestedBy: command.isFirstParty ? (command.requestedBy ?? null) : null,
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
