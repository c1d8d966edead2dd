import { Clock, ForbiddenError, IdGenerator, ValidationError } from '@lnk/shared/kernel';
import { PersonalAccessToken, Principal } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { PersonalAccessTokenRepository } from '../ports/token.repositories';
import { checkFutureExpiry, checkPatFields, mintPat, PatMint } from '../services/personal-access-token-mint';
import { CreatePatCommand } from './personal-access-token.types';

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
    const fields = checkPatFields(command);
    const beyond = fields.scopes.filter((s) => !principal.scopes.includes(s));
    if (beyond.length) throw ValidationError.field('scopes', `scopes beyond those of the token making the request: ${beyond.join(', ')}`);
    if (principal.via === 'oauth') {
      const client = principal.clientId ? await this.clients.findById(principal.clientId) : null;
      if (!client?.isFirstParty) throw new ForbiddenError('A token issued to a third-party application cannot create personal access tokens');
    }
    const now = this.clock.now();
    checkFutureExpiry(command.expiresAt, now);
    const limit = principal.grantExpiresAt;
    if (command.expiresAt && limit && command.expiresAt > limit) {
      throw ValidationError.field('expiresAt', `expiresAt must not be later than ${limit.toISOString()}, when the token making the request expires`);
    }
    return mintPat(this.mint(), principal.userId, fields, command.expiresAt ?? limit, now);
  }

  private mint(): PatMint {
    return { pats: this.pats, secrets: this.secrets, hasher: this.hasher, ids: this.ids };
  }
}
