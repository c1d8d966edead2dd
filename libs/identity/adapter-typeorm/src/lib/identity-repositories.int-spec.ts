import { DataSource } from 'typeorm';
import { OAuthClient, User } from '@lnk/identity/domain';
import { ObjectIdGenerator, ValidationError } from '@lnk/shared/kernel';
import { createDataSource, openDatabase } from '@lnk/shared/database';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormOAuthClientRepository } from './typeorm-oauth-client.repository';
import { TypeormUserRepository } from './typeorm-user.repository';

const ids = new ObjectIdGenerator();

function user(email: string): User {
  const now = new Date('2026-03-04T05:06:07.089Z');
  return new User({ id: ids.next(), email, name: 'Ada', passwordHash: '$2b$04$hash', isVerified: false, isActive: true, twoFactorSecret: null, createdAt: now, updatedAt: now });
}

describe('TypeORM identity repositories', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let users: TypeormUserRepository;
  let clients: TypeormOAuthClientRepository;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDatabase(createDataSource(database.config, [identityPersistence]));
    users = new TypeormUserRepository(dataSource);
    clients = new TypeormOAuthClientRepository(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('stores a user and reads it back by id and by e-mail, dates to the millisecond', async () => {
    const ada = user('ada@example.com');
    await users.insert(ada);
    expect((await users.findById(ada.id))?.toProps()).toEqual(ada.toProps());
    expect((await users.findByEmail('ada@example.com'))?.id).toBe(ada.id);
    expect(await users.findByEmail('nobody@example.com')).toBeNull();
  });

  it('answers a taken e-mail with a validation error on email, even when two inserts race', async () => {
    const results = await Promise.allSettled([users.insert(user('race@example.com')), users.insert(user('race@example.com'))]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ValidationError);
    expect((rejected.reason as ValidationError).errors).toEqual([{ name: 'email', error: 'email is already registered' }]);
  });

  it('stores a client with its scopes and redirect URIs', async () => {
    const owner = user('owner@example.com');
    await users.insert(owner);
    const now = new Date();
    const client = new OAuthClient({
      id: ids.next(), clientId: 'cl_test', secretHash: 'a'.repeat(64), ownerId: owner.id, name: 'CLI', description: '',
      scopes: ['user:read', 'links:read'], redirectUris: ['https://app.example.com/cb'], isFirstParty: true, isActive: true, createdAt: now, updatedAt: now,
    });
    await clients.insert(client);
    expect((await clients.findByClientId('cl_test'))?.toProps()).toEqual(client.toProps());
  });
});
