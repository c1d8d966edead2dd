import { AuthorizationCode, OAuthClient, OAuthToken, PersonalAccessToken, User } from '@lnk/identity/domain';
import { ObjectIdGenerator, PageRequest } from '@lnk/shared/kernel';
import { TypeormUnitOfWork } from '@lnk/shared/database';
import { useTestRepositories } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormBackupCodeRepository, TypeormEmailVerificationRepository } from './typeorm-account.repositories';
import { TypeormOAuthClientRepository } from './typeorm-oauth-client.repository';
import {
  TypeormAuthorizationCodeRepository,
  TypeormOAuthTokenRepository,
  TypeormPersonalAccessTokenRepository,
} from './typeorm-token.repositories';
import { TypeormUserRepository } from './typeorm-user.repository';

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);
const hash = (seed: string) => seed.padEnd(64, '0').slice(0, 64);

describe('TypeORM token and account repositories', () => {
  const { dataSource, repos } = useTestRepositories([identityPersistence], (ds) => ({
    users: new TypeormUserRepository(ds),
    clients: new TypeormOAuthClientRepository(ds),
    tokens: new TypeormOAuthTokenRepository(ds),
    pats: new TypeormPersonalAccessTokenRepository(ds),
    codes: new TypeormAuthorizationCodeRepository(ds),
    backupCodes: new TypeormBackupCodeRepository(ds),
    verifications: new TypeormEmailVerificationRepository(ds),
  }));

  async function account(): Promise<{ user: User; client: OAuthClient }> {
    const id = ids.next();
    const user = new User({
      id,
      email: `${id}@example.com`,
      name: '',
      passwordHash: null,
      isVerified: false,
      isActive: true,
      twoFactorSecret: null,
      createdAt: now,
      updatedAt: now,
    });
    await repos.users.insert(user);
    const client = new OAuthClient({
      id: ids.next(),
      clientId: `cl_${id}`,
      secretHash: hash('s'),
      ownerId: id,
      requestedBy: null,
      name: `App ${id}`,
      description: '',
      scopes: ['user:read'],
      redirectUris: [],
      isFirstParty: false,
      isActive: true,
      createdAt: now,
      updatedAt: now,
    });
    await repos.clients.insert(client);
    return { user, client };
  }

  function token(userId: string, clientId: string, over: Partial<OAuthToken['props']> = {}): OAuthToken {
    const id = ids.next();
    return new OAuthToken({
      id,
      familyId: id,
      userId,
      clientId,
      scopes: ['user:read'],
      accessHash: hash(`a${id}`),
      refreshHash: hash(`r${id}`),
      accessExpiresAt: later(3600),
      refreshExpiresAt: later(86400),
      authorizationCodeId: null,
      authTime: null,
      rotatedAt: null,
      revokedAt: null,
      createdAt: now,
      ...over,
    });
  }

  it('finds a token by either hash, only while its account is active', async () => {
    const { user, client } = await account();
    const t = token(user.id, client.id);
    await repos.tokens.insert(t);
    expect((await repos.tokens.findByAccessHash(t.props.accessHash))?.props).toEqual(t.props);
    expect((await repos.tokens.findByRefreshHash(t.props.refreshHash))?.props.id).toBe(t.props.id);
    await dataSource().query('UPDATE users SET is_active = false WHERE id = $1', [user.id]);
    expect(await repos.tokens.findByAccessHash(t.props.accessHash)).toBeNull();
  });

  it('lets exactly one of several concurrent rotations mark a refresh token used', async () => {
    const { user, client } = await account();
    const t = token(user.id, client.id);
    await repos.tokens.insert(t);
    const wins = await Promise.all(Array.from({ length: 6 }, () => repos.tokens.markRotated(t.props.id, now)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('revokes a family, the tokens a code issued, everything of a user but one, and everything of a client', async () => {
    const { user, client } = await account();
    const first = token(user.id, client.id, { authorizationCodeId: ids.next() });
    const child = token(user.id, client.id, { familyId: first.props.familyId });
    const other = token(user.id, client.id);
    for (const t of [first, child, other]) await repos.tokens.insert(t);
    await repos.tokens.revokeIssuedByCode(first.props.authorizationCodeId as string, now);
    expect((await repos.tokens.findByAccessHash(child.props.accessHash))?.props.revokedAt).toEqual(now);
    expect((await repos.tokens.findByAccessHash(other.props.accessHash))?.props.revokedAt).toBeNull();

    const keep = token(user.id, client.id);
    await repos.tokens.insert(keep);
    await repos.tokens.revokeAllOfUser(user.id, now, keep.props.id);
    expect((await repos.tokens.findByAccessHash(other.props.accessHash))?.props.revokedAt).toEqual(now);
    expect((await repos.tokens.findByAccessHash(keep.props.accessHash))?.props.revokedAt).toBeNull();
    await repos.tokens.revokeAllOfClient(client.id, later(1));
    expect((await repos.tokens.findByAccessHash(keep.props.accessHash))?.props.revokedAt).toEqual(later(1));
  });

  it('deletes the tokens of a deleted client and of a deleted user with them', async () => {
    const { user, client } = await account();
    const t = token(user.id, client.id);
    await repos.tokens.insert(t);
    expect(await repos.clients.deleteOfOwner(user.id, client.id)).toBe(true);
    expect(await repos.tokens.findByRefreshHash(t.props.refreshHash)).toBeNull();
    const pat = new PersonalAccessToken({
      id: ids.next(),
      userId: user.id,
      name: 'ci',
      description: '',
      scopes: ['links:read'],
      tokenHash: hash(`p${user.id}`),
      lastUsedAt: null,
      expiresAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await repos.pats.insertWithinLimit(pat, { maxActive: 10, keptExpired: 10 }, now);
    expect(await repos.users.delete(user.id)).toBe(true);
    expect(await repos.pats.findByHash(pat.props.tokenHash)).toBeNull();
    expect(await repos.users.delete(user.id)).toBe(false);
  });

  it('pages a user’s PATs newest first, touches, and deletes only the owner’s', async () => {
    const { user } = await account();
    const { user: stranger } = await account();
    const made: PersonalAccessToken[] = [];
    for (let i = 0; i < 5; i++) {
      const p = new PersonalAccessToken({
        id: ids.next(),
        userId: user.id,
        name: `t${i}`,
        description: '',
        scopes: ['links:read'],
        tokenHash: hash(`pat${user.id}${i}`),
        lastUsedAt: null,
        expiresAt: i === 0 ? later(60) : null,
        createdAt: now,
        updatedAt: now,
      });
      await repos.pats.insertWithinLimit(p, { maxActive: 10, keptExpired: 10 }, now);
      made.push(p);
    }
    const page = await repos.pats.listOfUser(user.id, PageRequest.of(1, 2));
    expect(page.total).toBe(5);
    expect(page.items.map((p) => p.props.name)).toEqual(['t3', 't2']);
    await repos.pats.touch(made[0].props.id, later(5));
    expect((await repos.pats.findOfUser(user.id, made[0].props.id))?.props).toMatchObject({ lastUsedAt: later(5), expiresAt: later(60) });
    expect(await repos.pats.deleteOfUser(stranger.id, made[1].props.id)).toBe(false);
    expect(await repos.pats.deleteOfUser(user.id, made[1].props.id)).toBe(true);
  });

  it('consumes an authorization code once', async () => {
    const { user, client } = await account();
    const code = new AuthorizationCode({
      id: ids.next(),
      codeHash: hash(`c${user.id}`),
      clientId: client.id,
      userId: user.id,
      redirectUri: 'https://app.example.com/cb',
      scopes: ['user:read'],
      codeChallenge: 'x'.repeat(43),
      codeChallengeMethod: 'S256',
      expiresAt: later(60),
      consumedAt: null,
      createdAt: now,
    });
    await repos.codes.insert(code);
    expect((await repos.codes.findByHash(code.props.codeHash))?.props).toEqual(code.props);
    const results = await Promise.all([repos.codes.consume(code.props.id, now), repos.codes.consume(code.props.id, now)]);
    expect(results.sort()).toEqual([false, true]);
  });

  it('uses a backup code once, and an e-mail verification once and only before it expires', async () => {
    const { user } = await account();
    await repos.backupCodes.replace(user.id, [hash('b1'), hash('b2')]);
    expect(await repos.backupCodes.consume(user.id, hash('b1'), now)).toBe(true);
    expect(await repos.backupCodes.consume(user.id, hash('b1'), now)).toBe(false);
    expect(await repos.backupCodes.consume(user.id, hash('zz'), now)).toBe(false);

    await repos.verifications.insert({
      id: ids.next(),
      userId: user.id,
      email: user.email,
      tokenHash: hash('v1'),
      expiresAt: later(60),
      createdAt: now,
    });
    await repos.verifications.insert({
      id: ids.next(),
      userId: user.id,
      email: user.email,
      tokenHash: hash('v2'),
      expiresAt: later(60),
      createdAt: now,
    });
    expect(await repos.verifications.consume(hash('v2'), later(61))).toBeNull();
    expect(await repos.verifications.consume(hash('v1'), now)).toEqual({ userId: user.id, email: user.email });
    expect(await repos.verifications.consume(hash('v1'), now)).toBeNull();
  });

  it('lists an owner’s clients newest first, searching names case-insensitively with % taken literally', async () => {
    const { user } = await account();
    for (const name of ['Alpha app', 'beta APP', '100% tool']) {
      await repos.clients.insert(
        new OAuthClient({
          id: ids.next(),
          clientId: `cl_${ids.next()}`,
          secretHash: hash('s'),
          ownerId: user.id,
          requestedBy: null,
          name,
          description: '',
          scopes: [],
          redirectUris: [],
          isFirstParty: false,
          isActive: true,
          createdAt: now,
          updatedAt: now,
        }),
      );
    }
    expect((await repos.clients.listOfOwner(user.id, 'APP', PageRequest.of())).items.map((c) => c.name)).toEqual([
      'beta APP',
      'Alpha app',
      `App ${user.id}`,
    ]);
    expect((await repos.clients.listOfOwner(user.id, '%', PageRequest.of())).items.map((c) => c.name)).toEqual(['100% tool']);
    expect((await repos.clients.listOfOwner(user.id, undefined, PageRequest.of(0, 1))).total).toBe(4);
  });

  it('rolls back every write of a failed unit of work', async () => {
    const unitOfWork = new TypeormUnitOfWork(dataSource());
    const { user } = await account();
    await expect(
      unitOfWork.run(async () => {
        await repos.backupCodes.replace(user.id, [hash('t1')]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await repos.backupCodes.consume(user.id, hash('t1'), now)).toBe(false);
  });
});
