import { Clock, ForbiddenError, IdGenerator, NotFoundError, Page, PageRequest, ValidationError } from '@lnk/shared/kernel';
import { parseScopes } from '../model/scope';
import { PersonalAccessToken, Principal, TOKEN_BYTES, TOKEN_PREFIX } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { PersonalAccessTokenRepository } from '../ports/token.repositories';

export const MAX_PAT_DESCRIPTION = 500;

export interface CreatePatCommand {
  name: string;
  description?: string;
  scopes: string[];
  expiresAt?: Date | null;
}

/**
 * Creates a PAT with at most the scopes and at most the lifetime of the token creating it: no one mints
 * more power, or longer power, than they hold. A PAT made by a PAT ends no later than it (one without an
 * expiry only from one without); one made by an OAuth token ends no later than that sign-in's refresh
 * token. Without an `expiresAt` the PAT gets that limit. Only the service's own (first-party) clients
 * may make PATs: a third-party app granted `tokens:write` would otherwise turn its revocable grant into
 * a credential that outlives it.
 */
export class CreatePersonalAccessTokenUseCase {
  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly pats: PersonalAccessTokenRepository,
    private readonly secrets: SecretGenerator,
    private readonly hasher: SecretHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, command: CreatePatCommand): Promise<{ token: PersonalAccessToken; value: string }> {
    const name = command.name.trim();
    if (!name || name.length > 100) throw ValidationError.field('name', 'name must be 1 to 100 characters');
    const description = (command.description ?? '').trim();
    if (description.length > MAX_PAT_DESCRIPTION) throw ValidationError.field('description', `description must be at most ${MAX_PAT_DESCRIPTION} characters`);
    if (command.scopes.length === 0) throw ValidationError.field('scopes', 'at least one scope is required');
    const scopes = parseScopes(command.scopes);
    const beyond = scopes.filter((s) => !principal.scopes.includes(s));
    if (beyond.length) throw ValidationError.field('scopes', `scopes beyond those of the token making the request: ${beyond.join(', ')}`);
    if (principal.via === 'oauth') {
      const client = principal.clientId ? await this.clients.findById(principal.clientId) : null;
      if (!client?.isFirstParty) throw new ForbiddenError('A token issued to a third-party application cannot create personal access tokens');
    }
    const now = this.clock.now();
    if (command.expiresAt && command.expiresAt <= now) throw ValidationError.field('expiresAt', 'expiresAt must be in the future');
    const limit = principal.grantExpiresAt;
    if (command.expiresAt && limit && command.expiresAt > limit) {
      throw ValidationError.field('expiresAt', `expiresAt must not be later than ${limit.toISOString()}, when the token making the request expires`);
    }
    const value = TOKEN_PREFIX.personal + this.secrets.generate(TOKEN_BYTES);
    const token = new PersonalAccessToken({
      id: this.ids.next(),
      userId: principal.userId,
      name,
      description,
      scopes,
      tokenHash: this.hasher.hash(value),
      lastUsedAt: null,
      expiresAt: command.expiresAt ?? limit,
      createdAt: now,
      updatedAt: now,
    });
    await this.pats.insert(token);
    return { token, value };
  }
}

export class ListPersonalAccessTokensUseCase {
  constructor(private readonly pats: PersonalAccessTokenRepository) {}

  execute(principal: Principal, page: PageRequest): Promise<Page<PersonalAccessToken>> {
    return this.pats.listOfUser(principal.userId, page);
  }
}

export class GetPersonalAccessTokenUseCase {
  constructor(private readonly pats: PersonalAccessTokenRepository) {}

  async execute(principal: Principal, id: string): Promise<PersonalAccessToken> {
    const token = await this.pats.findOfUser(principal.userId, id);
    if (!token) throw new NotFoundError('Token');
    return token;
  }
}

/** Revokes (deletes) a PAT; the one authenticating the request cannot revoke itself. */
export class RevokePersonalAccessTokenUseCase {
  constructor(
    private readonly pats: PersonalAccessTokenRepository,
    private readonly revocations: RevocationListener,
  ) {}

  async execute(principal: Principal, id: string): Promise<void> {
    if (principal.via === 'pat' && principal.tokenId === id) {
      throw ValidationError.field('id', 'the token used for this request cannot revoke itself');
    }
    if (!(await this.pats.deleteOfUser(principal.userId, id))) throw new NotFoundError('Token');
    this.revocations.tokensRevoked();
  }
}
