import { User } from '@lnk/identity/domain';
import { ObjectIdGenerator } from '@lnk/shared/kernel';
import { sql, TypeormUnitOfWork } from '@lnk/shared/database';
import { useTestRepositories } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormEmailChangeLog, TypeormIdpIdentityRepository, TypeormPendingEmailChanges } from './typeorm-address-ownership.repositories';
import { TypeormUserRepository } from './typeorm-user.repository';

const ids = new ObjectIdGenerator();
const at = new Date('2026-03-04T05:06:07.089Z');

function user(email: string, pendingEmail: string | null = null): User {
  return new User({ id: ids.next(), email, name: '', passwordHash: null, isVerified: true, isActive: true, twoFactorSecret: null, pendingEmail, createdAt: at, updatedAt: at });
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

  it('keeps a pending address beside the sign-in address, and withdraws every other account\'s request for a proven address', async () => {
    const pending = new TypeormPendingEmailChanges(dataSource());
    const asker = user('asker@example.com', 'wanted@example.com');
    const claimant = user('claimant@example.com', 'wanted@example.com');
    await repos.users.insert(asker);
    await repos.users.insert(claimant);
    expect((await repos.users.findById(asker.id))?.toProps()).toEqual(asker.toProps());
    await sql(dataSource(), 'INSERT INTO email_verifications (id, user_id, email, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [ids.next(), asker.id, 'wanted@example.com', 'a'.repeat(64), new Date(at.getTime() + 3600_000), at]);
    const later = new Date(at.getTime() + 1000);
    await pending.withdrawAll('wanted@example.com', claimant.id, later);
    expect((await repos.users.findById(asker.id))?.toProps()).toMatchObject({ pendingEmail: null, updatedAt: later });
    expect((await repos.users.findById(claimant.id))?.pendingEmail).toBe('wanted@example.com');
    const { rows } = await sql<{ used_at: Date | null }>(dataSource(), 'SELECT used_at FROM email_verifications WHERE user_id = $1', [asker.id]);
    expect(rows.map((r) => r.used_at && new Date(r.used_at).toISOString())).toEqual([later.toISOString()]);
  });

  it('counts an account\'s e-mail change requests since a moment, with the oldest of them', async () => {
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
  it('reports each changed or deleted account once the change is committed, and the accounts whose pending address was withdrawn', async () => {
    const heard: string[] = [];
    const changes = { accountChanged: (id: string) => heard.push(id) };
    const users = new TypeormUserRepository(dataSource(), changes);
    const pending = new TypeormPendingEmailChanges(dataSource(), changes);
    const unitOfWork = new TypeormUnitOfWork(dataSource());
    const ada = user('heard-ada@example.com', 'heard-wanted@example.com');
    const bob = user('heard-bob@example.com', 'heard-wanted@example.com');
    const eve = user('heard-eve@example.com');
    await users.insert(ada);
    await users.insert(bob);
    await users.insert(eve);
    expect(heard).toEqual([]); // a new account was in no cache

    ada.requestEmailChange('heard-other@example.com', at);
    await users.update(ada);
    expect(heard).toEqual([ada.id]);

    await unitOfWork.run(async () => {
      await users.update(eve);
      await pending.withdrawAll('heard-wanted@example.com', null, at);
      expect(heard).toEqual([ada.id]); // not before the COMMIT
    });
    expect(heard.slice(1)).toEqual([eve.id, bob.id]); // ada no longer asked for the address

    await users.delete(eve.id);
    expect(heard.slice(3)).toEqual([eve.id]);
  });
});
