import { testMigration } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { IdentityAccounts1763800000000 } from './migrations/1763800000000-identity-accounts';
import { IdentityTokens1763800100000 } from './migrations/1763800100000-identity-tokens';

// Clients made before the change: the first-party one was owned by the account it was made for, so
// deleting that account took the client and every user's tokens with it.
describe('the first-party clients migration', () => {
  it('moves the owner of existing first-party clients to requested_by, so deleting that account leaves them', async () => {
    await testMigration({
      before: [{ migrations: [IdentityAccounts1763800000000, IdentityTokens1763800100000] }],
      seed: async (before) => {
        const now = new Date();
        await before.query(
          `INSERT INTO users (id, email, created_at, updated_at) VALUES ('${'a'.repeat(24)}', 'asker@example.com', $1, $1)`,
          [now],
        );
        const insert = `INSERT INTO oauth_clients (id, client_id, secret_hash, owner_id, name, description, scopes, redirect_uris,
          is_first_party, is_active, created_at, updated_at)
          VALUES ($1, $2, $3, $4, 'App', '', '{}', '{}', $5, true, $6, $6)`;
        await before.query(insert, ['f'.repeat(24), 'cl_first', 'h'.repeat(64), 'a'.repeat(24), true, now]);
        await before.query(insert, ['o'.repeat(24), 'cl_own', 'h'.repeat(64), 'a'.repeat(24), false, now]);
      },
      after: [identityPersistence],
      check: async (after) => {
        // The seeded clients only: later migrations add the service's own (the dashboard's).
        const seeded = `client_id IN ('cl_first', 'cl_own')`;
        const rows = await after.query(`SELECT client_id, owner_id, requested_by FROM oauth_clients WHERE ${seeded} ORDER BY client_id`);
        expect(rows).toEqual([
          { client_id: 'cl_first', owner_id: null, requested_by: 'a'.repeat(24) },
          { client_id: 'cl_own', owner_id: 'a'.repeat(24), requested_by: null },
        ]);
        await after.query(`DELETE FROM users WHERE id = $1`, ['a'.repeat(24)]);
        expect(await after.query(`SELECT client_id, owner_id, requested_by FROM oauth_clients WHERE ${seeded}`)).toEqual([
          { client_id: 'cl_first', owner_id: null, requested_by: null },
        ]);
      },
    });
  });
});
