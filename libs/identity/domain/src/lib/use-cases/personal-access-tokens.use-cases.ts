import { Clock, ForbiddenError, IdGenerator, NotFoundError, Page, PageRequest, ValidationError } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { parseScopes, Scope } from '../model/scope';
import { PersonalAccessToken, Principal, TOKEN_BYTES, TOKEN_PREFIX } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { PersonalAccessTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';

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

/** The checks every new PAT passes, whoever makes it. */
function checkPatFields(command: CreatePatCommand): { name: string; description: string; scopes: Scope[] } {
  const name = command.name.trim();
  if (!name || name.length > 100) throw ValidationError.field('name', 'name must be 1 to 100 characters');
  const description = (command.description ?? '').trim();
  if (description.length > MAX_PAT_DESCRIPTION) throw ValidationError.field('description', `description must be at most ${MAX_PAT_DESCRIPTION} characters`);
  if (command.scopes.length === 0) throw ValidationError.field('scopes', 'at least one scope is required');
  return { name, description, scopes: parseScopes(command.scopes) };
}

function checkFutureExpiry(expiresAt: Date | null | undefined, now: Date): void {
  if (expiresAt && expiresAt <= now) throw ValidationError.field('expiresAt', 'expiresAt must be in the future');
}

interface PatMint {
  readonly pats: PersonalAccessTokenRepository;
  readonly secrets: SecretGenerator;
  readonly hasher: SecretHasher;
  readonly ids: IdGenerator;
}

/** Stores a new PAT (only the hash of its value) and returns the value, shown once. */
async function mintPat(
  mint: PatMint,
  userId: string,
  fields: { name: string; description: string; scopes: Scope[] },
  expiresAt: Date | null,
  now: Date,
): Promise<{ token: PersonalAccessToken; value: string }> {
  const value = TOKEN_PREFIX.personal + mint.secrets.generate(TOKEN_BYTES);
  const token = new PersonalAccessToken({
    id: mint.ids.next(),
    userId,
    ...fields,
    tokenHash: mint.hasher.hash(value),
    lastUsedAt: null,
    expiresAt,
    createdAt: now,
    updatedAt: now,
  });
  await mint.pats.insert(token);
  return { token, value };
}

/**
 * A PAT the operator (the CLI on the server) makes for an account: the operator holds the database and
 * vouches for the account, so no token's scopes or lifetime bound it. It carries exactly the scopes
 * named and ends when `expiresAt` says, or never. Same checks on name, scopes and expiry as any PAT;
 * only an active account gets one.
 */
export class CreateOperatorPatUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly pats: PersonalAccessTokenRepository,
    private readonly secrets: SecretGenerator,
    private readonly hasher: SecretHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(ownerEmail: string, command: CreatePatCommand): Promise<{ token: PersonalAccessToken; value: string }> {
    const owner = await this.users.findByEmail(normalizeEmail(ownerEmail, 'owner'));
    if (!owner) throw new NotFoundError(`User ${ownerEmail}`);
    if (!owner.isActive) throw ValidationError.field('owner', 'the account is deactivated');
    const fields = checkPatFields(command);
    const now = this.clock.now();
    checkFutureExpiry(command.expiresAt, now);
    return mintPat(this.mint(), owner.id, fields, command.expiresAt ?? null, now);
  }

  private mint(): PatMint {
    return { pats: this.pats, secrets: this.secrets, hasher: this.hasher, ids: this.ids };
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
