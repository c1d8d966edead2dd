import { OAuthClient, OAuthToken, PersonalAccessToken, User } from '@lnk/identity/domain';
import { ObjectIdGenerator } from '@lnk/shared/kernel';
import { useTestRepositories } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormTwoFactorStateRepository } from './typeorm-account.repositories';
import { TypeormOAuthClientRepository } from './typeorm-oauth-client.repository';
import { TypeormOAuthTokenRepository, TypeormPersonalAccessTokenRepository } from './typeorm-token.repositories';
import { TypeormUserRepository } from './typeorm-user.repository';

const ids = new ObjectIdGenerator();
const now = new Date('2026-03-04T05:06:07.089Z');

describe('TypeORM two-factor state, sign-in times and PAT revocation', () => {
  const { dataSource, repos } = useTestRepositories([identityPersistence], (ds) => ({
    users: new TypeormUserRepository(ds),
    states: new TypeormTwoFactorStateRepository(ds),
  }));

  async function account(): Promise<string> {
    const id = ids.next();
    await repos.users.insert(
      new User({
        id,
        email: `${id}@example.com`,
        name: '',
        passwordHash: null,
        isVerified: true,
        isActive: true,
        twoFactorSecret: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    return id;
  }

  it('keeps one pending enrolment per account, replaced by the next, and removes it only while it is the one given', async () => {
    const id = await account();
    expect(await repos.states.findPending(id)).toBeNull();
    await repos.states.savePending(id, 'sealed-1', now);
    await repos.states.savePending(id, 'sealed-2', now);
    expect(await repos.states.findPending(id)).toBe('sealed-2');
    expect(await repos.states.deletePending(id, 'sealed-1')).toBe(false);
    expect(await repos.states.deletePending(id, 'sealed-2')).toBe(true);
    expect(await repos.states.deletePending(id)).toBe(false);
    expect(await repos.states.findPending(id)).toBeNull();
  });

  it(
    'accepts each TOTP step once and never an earlier one; of parallel ' + 'uses of one step exactly one wins (no replay under a race)',
    async () => {
      const id = await account();
      const step = 59_000_000;
      const racing = await Promise.all(Array.from({ length: 8 }, () => repos.states.useStep(id, step)));
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await repos.states.useStep(id, step)).toBe(false);
      expect(await repos.states.useStep(id, step - 1)).toBe(false);
      expect(await repos.states.useStep(id, step + 1)).toBe(true);
      // Another account's steps are its own.
      expect(await repos.states.useStep(await account(), step)).toBe(true);
    },
  );

  it('stores the sign-in time of a token and deletes every PAT of one account only', async () => {
    const [ada, bob] = [await account(), await account()];
    const client = new OAuthClient({
      id: ids.next(),
      clientId: `cl_${ada}`,
      secretHash: 'a'.repeat(64),
      ownerId: ada,
      requestedBy: null,
      name: 'App',
      description: '',
      scopes: ['user:read'],
      redirectUris: [],
      isFirstParty: false,
      isActive: true,
      createdAt: now,
      updatedAt: now,
    });
    await new TypeormOAuthClientRepository(dataSource()).insert(client);
    const tokens = new TypeormOAuthTokenRepository(dataSource());
    const id = ids.next();
    const token = new OAuthToken({
      id,
      familyId: id,
      userId: ada,
      clientId: client.id,
      scopes: ['user:read'],
      accessHash: 'b'.repeat(64),
      refreshHash: 'c'.repeat(64),
      accessExpiresAt: new Date(now.getTime() + 3600_000),
      refreshExpiresAt: new Date(now.getTime() + 86_400_000),
      authorizationCodeId: null,
      authTime: now,
      rotatedAt: null,
      revokedAt: null,
      createdAt: now,
    });
    await tokens.insert(token);
    expect((await tokens.findByAccessHash('b'.repeat(64)))?.props.authTime).toEqual(now);

    const pats = new TypeormPersonalAccessTokenRepository(dataSource());
    const pat = (userId: string, hash: string) =>
      new PersonalAccessToken({
        id: ids.next(),
        userId,
        name: 'ci',
        description: '',
        scopes: ['user:read'],
        tokenHash: hash,
        lastUsedAt: null,
        expiresAt: null,
        createdAt: now,
        updatedAt: now,
      });
    await pats.insertWithinLimit(pat(ada, 'd'.repeat(64)), { maxActive: 10, keptExpired: 10 }, now);
    await pats.insertWithinLimit(pat(ada, 'e'.repeat(64)), { maxActive: 10, keptExpired: 10 }, now);
    await pats.insertWithinLimit(pat(bob, 'f'.repeat(64)), { maxActive: 10, keptExpired: 10 }, now);
    await pats.deleteAllOfUser(ada);
    expect(await pats.findByHash('d'.repeat(64))).toBeNull();
    expect(await pats.findByHash('e'.repeat(64))).toBeNull();
    expect(await pats.findByHash('f'.repeat(64))).not.toBeNull();
  });
});
