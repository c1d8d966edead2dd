import { clockReading } from '@lnk/shared/testing';
import { MemoryPersonalAccessTokenRepository, MemoryUserRepository } from '@lnk/identity/testing';
import { Clock, NotFoundError, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { SCOPES } from '../model/scope';
import { OAuthToken } from '../model/tokens';
import { User, UserProps } from '../model/user.entity';
import { PasswordHasher } from '@lnk/shared/kernel';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository } from '../ports/token.repositories';
import { SetPasswordByOperatorUseCase } from './set-password-by-operator.use-case';
import { CreateOperatorPatUseCase } from './create-operator-pat.use-case';

// Small in-memory fakes that copy on read and write.
const now = new Date('2026-06-01T00:00:00.000Z');
const clock: Clock = clockReading(() => new Date(now));
let n = 0;
const ids = { next: () => (++n).toString(16).padStart(24, '0') };
const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };
const secrets: SecretGenerator = { generate: () => `r${++n}` };
const passwords: PasswordHasher = { hash: async (p) => `pw:${p}`, verify: async (p, h) => h === `pw:${p}` };
const unitOfWork: UnitOfWork = { run: (work) => work() };

const notUsed = async (): Promise<never> => {
  throw new Error('not used by the operator use cases');
};

/** Records revocations per user; the rest of the port is not used by the operator. */
class Tokens extends OAuthTokenRepository {
  revoked: { userId: string; exceptTokenId?: string }[] = [];
  insert = notUsed;
  async findByAccessHash(): Promise<OAuthToken | null> {
    return null;
  }
  async findByRefreshHash(): Promise<OAuthToken | null> {
    return null;
  }
  async markRotated() {
    return false;
  }
  revoke = notUsed;
  revokeFamily = notUsed;
  revokeIssuedByCode = notUsed;
  async revokeAllOfUser(userId: string, _at: Date, exceptTokenId?: string) {
    this.revoked.push({ userId, ...(exceptTokenId ? { exceptTokenId } : {}) });
  }
  revokeAllOfClient = notUsed;
}

function user(props: Partial<UserProps> = {}): User {
  return new User({
    id: ids.next(),
    email: 'ada@example.com',
    name: 'Ada',
    passwordHash: 'pw:old-password',
    isVerified: true,
    isActive: true,
    twoFactorSecret: null,
    createdAt: now,
    updatedAt: now,
    ...props,
  });
}

describe('CreateOperatorPatUseCase (token:create)', () => {
  let users: MemoryUserRepository;
  let pats: MemoryPersonalAccessTokenRepository;
  let useCase: CreateOperatorPatUseCase;
  let ada: User;

  beforeEach(async () => {
    users = new MemoryUserRepository();
    pats = new MemoryPersonalAccessTokenRepository();
    useCase = new CreateOperatorPatUseCase(users, { pats, secrets, hasher, ids, maxActive: 2 }, clock);
    ada = user();
    await users.insert(ada);
  });

  it('gives the account exactly the scopes named and no expiry when none is asked for, storing only a hash of the value', async () => {
    const { token, value } = await useCase.execute(' ADA@example.com ', { name: 'laptop', scopes: ['links:write', 'links:read'] });
    expect(token.props).toMatchObject({
      userId: ada.id,
      name: 'laptop',
      scopes: ['links:read', 'links:write'],
      expiresAt: null,
      tokenHash: `h:${value}`,
    });
    expect(value.startsWith('tkn_')).toBe(true);
    expect(pats.rows).toHaveLength(1);
    expect(JSON.stringify(pats.rows[0].props)).not.toContain(`"${value}"`);
  });

  it('keeps the expiry asked for, however far (the operator vouches: no token bounds it)', async () => {
    const far = new Date('2036-01-01T00:00:00.000Z');
    const { token } = await useCase.execute('ada@example.com', { name: 'ci', scopes: [...SCOPES], expiresAt: far });
    expect(token.props.expiresAt).toEqual(far);
    expect(token.props.scopes).toEqual([...SCOPES]);
  });

  it.each([
    ['a past expiry', { name: 'x', scopes: ['links:read'], expiresAt: new Date('2026-05-31T00:00:00.000Z') }, 'expiresAt'],
    ['no scope', { name: 'x', scopes: [] }, 'scopes'],
    ['an unknown scope', { name: 'x', scopes: ['admin'] }, 'scopes'],
    ['a blank name', { name: '  ', scopes: ['links:read'] }, 'name'],
  ])('refuses %s as any PAT is refused', async (_what, command, field) => {
    await expect(useCase.execute('ada@example.com', command)).rejects.toMatchObject({ errors: [expect.objectContaining({ name: field })] });
    expect(pats.rows).toEqual([]);
  });

  // The operator vouches for a token's power, not for more tokens than any account may hold.
  it('holds the account to the bound on active PATs, with QUOTA_EXCEEDED', async () => {
    await useCase.execute('ada@example.com', { name: 'one', scopes: ['links:read'] });
    await useCase.execute('ada@example.com', { name: 'two', scopes: ['links:read'] });
    await expect(useCase.execute('ada@example.com', { name: 'three', scopes: ['links:read'] })).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      meta: { limit: { resource: 'personalAccessTokens', used: 2, limit: 2 } },
    });
    expect(pats.rows).toHaveLength(2);
  });

  it('refuses an unknown account and a deactivated one: a token for them would be a way back in', async () => {
    await expect(useCase.execute('nobody@example.com', { name: 'x', scopes: ['links:read'] })).rejects.toBeInstanceOf(NotFoundError);
    await users.insert(user({ email: 'gone@example.com', isActive: false }));
    await expect(useCase.execute('gone@example.com', { name: 'x', scopes: ['links:read'] })).rejects.toBeInstanceOf(ValidationError);
    expect(pats.rows).toEqual([]);
  });
});

describe('SetPasswordByOperatorUseCase (user:set-password)', () => {
  let users: MemoryUserRepository;
  let pats: MemoryPersonalAccessTokenRepository;
  let tokens: Tokens;
  let revocations: RevocationListener & { count: number };
  let useCase: SetPasswordByOperatorUseCase;
  let ada: User;

  beforeEach(async () => {
    users = new MemoryUserRepository();
    pats = new MemoryPersonalAccessTokenRepository();
    tokens = new Tokens();
    revocations = { count: 0, tokensRevoked: () => void revocations.count++ };
    useCase = new SetPasswordByOperatorUseCase({ users, passwords, tokens, pats, revocations, unitOfWork, clock });
    ada = user();
    await users.insert(ada);
    await new CreateOperatorPatUseCase(users, { pats, secrets, hasher, ids, maxActive: 10 }, clock).execute('ada@example.com', {
      name: 'old',
      scopes: ['links:read'],
    });
  });

  // Whoever had the old password may have signed in or made tokens with it: a reset ends all of them.
  it('sets the hash of the new password, ends every session and revokes every PAT of the account', async () => {
    await useCase.execute('Ada@Example.com', 'new-password-123');
    expect((await users.findById(ada.id))?.passwordHash).toBe('pw:new-password-123');
    expect(tokens.revoked).toEqual([{ userId: ada.id }]);
    expect(pats.rows).toEqual([]);
    expect(revocations.count).toBe(1);
  });

  it('refuses a password too short, changing nothing', async () => {
    await expect(useCase.execute('ada@example.com', 'short')).rejects.toBeInstanceOf(ValidationError);
    expect((await users.findById(ada.id))?.passwordHash).toBe('pw:old-password');
    expect(tokens.revoked).toEqual([]);
    expect(pats.rows).toHaveLength(1);
  });

  it('refuses an unknown account', async () => {
    await expect(useCase.execute('nobody@example.com', 'new-password-123')).rejects.toBeInstanceOf(NotFoundError);
  });
});
