import { DomainError, IdGenerator, ValidationError } from '@lnk/shared/kernel';
import { parseScopes, Scope } from '../model/scope';
import { PersonalAccessToken, TOKEN_BYTES, TOKEN_PREFIX } from '../model/tokens';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { PersonalAccessTokenRepository } from '../ports/token.repositories';
import { CreatePatCommand } from '../use-cases/personal-access-token.types';

export const MAX_PAT_DESCRIPTION = 500;

/** A new PAT's name, trimmed: 1 to 100 characters. */
export function checkPatName(value: string): string {
  const name = value.trim();
  if (!name || name.length > 100) throw ValidationError.field('name', 'name must be 1 to 100 characters');
  return name;
}

/** A new PAT's scopes: at least one, each a known scope. */
export function checkPatScopes(values: readonly string[]): Scope[] {
  if (values.length === 0) throw ValidationError.field('scopes', 'at least one scope is required');
  return parseScopes(values);
}

/**
 * Active PATs (not revoked, not expired) an account may hold unless configured otherwise (PAT_LIMIT):
 * each one is a credential with a rate-limit budget of its own, so without a bound one account could
 * multiply its budgets at will.
 */
export const DEFAULT_MAX_ACTIVE_PATS = 100;

/** Expired PATs an account keeps (listed with isExpired): beyond them, the longest expired go, so storage stays bounded. */
export const KEPT_EXPIRED_PATS = 100;

/** QUOTA_EXCEEDED, shaped as the plan quotas' answer (meta.limit), but for a bound that no plan changes. */
export class PersonalAccessTokenLimitError extends DomainError {
  constructor(active: number, limit: number) {
    super(
      'QUOTA_EXCEEDED',
      `The account holds ${active} active personal access tokens, the most it may hold (${limit}): revoke one before making another`,
      {
        limit: { resource: 'personalAccessTokens', used: active, limit },
      },
    );
  }
}

/** The checks every new PAT passes, whoever makes it. */
export function checkPatFields(command: CreatePatCommand): { name: string; description: string; scopes: Scope[] } {
  const name = checkPatName(command.name);
  const description = (command.description ?? '').trim();
  if (description.length > MAX_PAT_DESCRIPTION)
    throw ValidationError.field('description', `description must be at most ${MAX_PAT_DESCRIPTION} characters`);
  return { name, description, scopes: checkPatScopes(command.scopes) };
}

export function checkFutureExpiry(expiresAt: Date | null | undefined, now: Date): void {
  if (expiresAt && expiresAt <= now) throw ValidationError.field('expiresAt', 'expiresAt must be in the future');
}

export interface PatMint {
  readonly pats: PersonalAccessTokenRepository;
  readonly secrets: SecretGenerator;
  readonly hasher: SecretHasher;
  readonly ids: IdGenerator;
  /** The most active PATs an account may hold (DEFAULT_MAX_ACTIVE_PATS unless configured). */
  readonly maxActive: number;
}

/** Stores a new PAT (only the hash of its value) within the account's bound, and returns the value, shown once. */
export async function mintPat(
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
  const { stored, active } = await mint.pats.insertWithinLimit(token, { maxActive: mint.maxActive, keptExpired: KEPT_EXPIRED_PATS }, now);
  if (!stored) throw new PersonalAccessTokenLimitError(active, mint.maxActive);
  return { token, value };
}
