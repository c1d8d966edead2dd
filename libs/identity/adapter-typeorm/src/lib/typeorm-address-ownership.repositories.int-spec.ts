import { User } from '@lnk/identity/domain';
import { ObjectIdGenerator } from '@lnk/shared/kernel';
import { TypeormUnitOfWork } from '@lnk/shared/database';
import { useTestRepositories } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormEmailChangeLog, TypeormIdpIdentityRepository } from './typeorm-address-ownership.repositories';
import { TypeormUserRepository } from './typeorm-user.repository';

const ids = new ObjectIdGenerator();
const at = new Date('2026-03-04T05:06:07.089Z');

function user(email: string): User {
  return new User({
    id: ids.next(),
    email,
    name: '',
    passwordHash: null,
    isVerified: true,
    isActive: true,
    twoFactorSecret: null,
    createdAt: at,
    updatedAt: at,
  });
}

describe('TypeORM repositories of who owns an address', () => {
  const { dataSource, repos } = useTestRepositories([identityPersistence], (ds) => ({ users: new TypeormUserRepository(ds) }));

  it('links a provider account (issuer, subject) to one user only, and forgets the link with the user', async () => {
    const identities = new TypeormIdpIdentityRepository(dataSource());
    const ada = user('ada@idp.example.com');
    const bob = user('bob@idp.example.com');
    await repos.users.insert(ada);
    await repos.users.insert(bob);
    expect(await identities.link({ issuer: 'https://idp.test', subject: 's1', userId: ada.id, createdAt: at })).toBe(true);
    expect(await identities.link({ issuer: 'https://idp.test', subject: 's1', userId: bob.id, createdAt: at })).toBe(false);
    expect(await identities.link({ issuer: 'https://other.test', subject: 's1', userId: bob.id, createdAt: at })).toBe(true);
    expect(await identities.findUserId('https://idp.test', 's1')).toBe(ada.id);
    expect(await identities.findUserId('https://other.test', 's1')).toBe(bob.id);
    expect(await identities.findUserId('https://idp.test', 's2')).toBeNull();
    await repos.users.delete(ada.id);
    expect(await identities.findUserId('https://idp.test', 's1')).toBeNull();
  });

  it("stores a changed address as the account's, unverified, with the moment of the change", async () => {
    const ada = user('stored-ada@example.com');
    await repos.users.insert(ada);
    const later = new Date(at.getTime() + 1000);
    ada.changeEmail('stored-new@example.com', later);
    await repos.users.update(ada);
    expect((await repos.users.findByEmail('stored-new@example.com'))?.toProps()).toEqual({
      ...ada.toProps(),
      isVerified: false,
      emailChangedAt: later,
      updatedAt: later,
    });
    expect(await repos.users.findByEmail('stored-ada@example.com')).toBeNull();
  });

  it("counts an account's e-mail change requests since a moment, with the oldest of them", async () => {
    const log = new TypeormEmailChangeLog(dataSource());
    const ada = user('log@example.com');
    await repos.users.insert(ada);
    expect(await log.since(ada.id, at)).toEqual({ count: 0, oldest: null });
    await log.record(ada.id, at);
    await log.record(ada.id, new Date(at.getTime() + 60_000));
    expect(await log.since(ada.id, at)).toEqual({ count: 2, oldest: at });
    expect(await log.since(ada.id, new Date(at.getTime() + 1))).toEqual({ count: 1, oldest: new Date(at.getTime() + 60_000) });
  });

  // GET /user/me answers from a cache of accounts: a write it did not hear of, or heard of before the
  // COMMIT (a read in between would cache the old row again), would show an old address or name.
  it('reports each changed or deleted account once the change is committed', async () => {
    const heard: string[] = [];
    const changes = { accountChanged: (id: string) => heard.push(id) };
    const users = new TypeormUserRepository(dataSource(), changes);
    const unitOfWork = new TypeormUnitOfWork(dataSource());
    const ada = user('heard-ada@example.com');
    const eve = user('heard-eve@example.com');
    await users.insert(ada);
    await users.insert(eve);
    expect(heard).toEqual([]); // a new account was in no cache

    ada.changeEmail('heard-other@example.com', at);
    await users.update(ada);
    expect(heard).toEqual([ada.id]);

    await unitOfWork.run(async () => {
      await users.update(eve);
      expect(heard).toEqual([ada.id]); // not before the COMMIT
    });
    expect(heard.slice(1)).toEqual([eve.id]);

    await users.delete(eve.id);
    expect(heard.slice(2)).toEqual([eve.id]);
  });
});
