import { OAuthClient, User } from '@lnk/identity/domain';
import { ObjectIdGenerator, PageRequest, ValidationError } from '@lnk/shared/kernel';
import { useTestRepositories } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormOAuthClientRepository } from './typeorm-oauth-client.repository';
import { TypeormUserRepository } from './typeorm-user.repository';

const ids = new ObjectIdGenerator();

function user(email: string): User {
  const now = new Date('2026-03-04T05:06:07.089Z');
  return new User({
    id: ids.next(),
    email,
    name: 'Ada',
    passwordHash: '$2b$04$hash',
    isVerified: false,
    isActive: true,
    twoFactorSecret: null,
    createdAt: now,
    updatedAt: now,
  });
}

describe('TypeORM identity repositories', () => {
  const { repos } = useTestRepositories([identityPersistence], (ds) => ({
    users: new TypeormUserRepository(ds),
    clients: new TypeormOAuthClientRepository(ds),
  }));

  // The contract checks a taken e-mail one insert after another; only the database's constraint settles a race.
  it('answers a taken e-mail with a validation error on email, even when two inserts race', async () => {
    const results = await Promise.allSettled([repos.users.insert(user('race@example.com')), repos.users.insert(user('race@example.com'))]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ValidationError);
    expect((rejected.reason as ValidationError).errors).toEqual([{ name: 'email', error: 'email is already registered' }]);
  });

  it('stores a client with its scopes and redirect URIs', async () => {
    const owner = user('owner@example.com');
    await repos.users.insert(owner);
    const now = new Date();
    const client = new OAuthClient({
      id: ids.next(),
      clientId: 'cl_test',
      secretHash: 'a'.repeat(64),
      ownerId: null,
      requestedBy: owner.id,
      name: 'CLI',
      description: '',
      scopes: ['user:read', 'links:read'],
      redirectUris: ['https://app.example.com/cb'],
      isFirstParty: true,
      isActive: true,
      createdAt: now,
      updatedAt: now,
    });
    await repos.clients.insert(client);
    expect((await repos.clients.findByClientId('cl_test'))?.toProps()).toEqual(client.toProps());
  });

  // Defends against an account taking the service's own client with it (or managing it) through its owner.
  it('keeps a first-party client out of every owner query and alive when the account that asked for it is deleted', async () => {
    const asker = user('asker@example.com');
    await repos.users.insert(asker);
    const now = new Date();
    const props = {
      name: 'App',
      description: '',
      scopes: ['user:read' as const],
      redirectUris: [],
      isActive: true,
      createdAt: now,
      updatedAt: now,
    };
    const firstParty = new OAuthClient({
      ...props,
      id: ids.next(),
      clientId: 'cl_first',
      secretHash: null,
      ownerId: null,
      requestedBy: asker.id,
      isFirstParty: true,
    });
    const own = new OAuthClient({
      ...props,
      id: ids.next(),
      clientId: 'cl_own',
      secretHash: 'b'.repeat(64),
      ownerId: asker.id,
      requestedBy: null,
      isFirstParty: false,
    });
    await repos.clients.insert(firstParty);
    await repos.clients.insert(own);
    expect((await repos.clients.listOfOwner(asker.id, undefined, PageRequest.of(0, 10))).items.map((c) => c.clientId)).toEqual(['cl_own']);
    expect(await repos.clients.findOfOwner(asker.id, firstParty.id)).toBeNull();
    expect(await repos.clients.deleteOfOwner(asker.id, firstParty.id)).toBe(false);
    // The schema itself refuses a first-party client with an owner, or a user's client without a secret.
    await expect(
      repos.clients.insert(new OAuthClient({ ...firstParty.toProps(), id: ids.next(), clientId: 'cl_bad1', ownerId: asker.id })),
    ).rejects.toThrow();
    await expect(
      repos.clients.insert(new OAuthClient({ ...own.toProps(), id: ids.next(), clientId: 'cl_bad2', secretHash: null })),
    ).rejects.toThrow();
    await repos.users.delete(asker.id);
    expect((await repos.clients.findByClientId('cl_first'))?.toProps()).toEqual({ ...firstParty.toProps(), requestedBy: null });
    expect(await repos.clients.findByClientId('cl_own')).toBeNull();
  });
});
