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

/** What registering an OAuth client needs: the clients, its owner, and its secret and hash. */
export interface OAuthClientCreation {
  clients: OAuthClientRepository;
  users: UserRepository;
  secrets: SecretGenerator;
  hasher: SecretHasher;
  ids: IdGenerator;
  clock: Clock;
}

export class CreateOAuthClientUseCase {
  constructor(private readonly deps: OAuthClientCreation) {}

  async execute(command: CreateOAuthClientCommand): Promise<CreatedOAuthClient> {
    const name = checkClientName(command.name);
    const scopes = parseScopes(command.scopes ?? SCOPES);
    const redirectUris = checkRedirectUris(command.redirectUris ?? []);
    const userId = command.isFirstParty ? command.requestedBy : command.ownerId;
    if (userId && !(await this.deps.users.findById(userId))) throw new NotFoundError('User');
    const clientSecret = command.isFirstParty && command.isPublic ? null : this.deps.secrets.generate(32);
    const now = this.deps.clock.now();
    const client = new OAuthClient({
      id: this.deps.ids.next(),
      clientId: `cl_${this.deps.secrets.generate(16)}`,
      secretHash: clientSecret === null ? null : this.deps.hasher.hash(clientSecret),
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
    await this.deps.clients.insert(client);
    return { client, clientSecret };
  }
}
