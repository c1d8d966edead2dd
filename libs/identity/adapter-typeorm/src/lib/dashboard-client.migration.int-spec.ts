import { testMigration } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormOAuthClientRepository } from './typeorm-oauth-client.repository';
import { IdentityAccounts1763800000000 } from './migrations/1763800000000-identity-accounts';
import { IdentityTokens1763800100000 } from './migrations/1763800100000-identity-tokens';
import { FirstPartyClients1763900400000 } from './migrations/1763900400000-first-party-clients';

describe('the dashboard client migration', () => {
  it("makes the dashboard's public first-party client, owned by no account, beside the clients already there", async () => {
    await testMigration({
      before: [{ migrations: [IdentityAccounts1763800000000, IdentityTokens1763800100000, FirstPartyClients1763900400000] }],
      seed: async (before) => {
        await before.query(
          `INSERT INTO oauth_clients (id, client_id, secret_hash, owner_id, name, description, scopes, redirect_uris, is_first_party,
            is_active, created_at, updated_at)
          VALUES ($1, 'cl_cli', $2, NULL, 'CLI', '', '{user:read}', '{}', true, true, now(), now())`,
          ['c'.repeat(24), 'h'.repeat(64)],
        );
      },
      after: [identityPersistence],
      check: async (after) => {
        const dashboard = await new TypeormOAuthClientRepository(after).findByClientId('lnk-dashboard');
        expect(dashboard?.toProps()).toMatchObject({
          id: '00000000000000000da5b0a4',
          secretHash: null,
          ownerId: null,
          requestedBy: null,
          isFirstParty: true,
          isActive: true,
          redirectUris: [],
          scopes: [],
        });
        expect(dashboard?.isConfidential).toBe(false);
        expect(await after.query(`SELECT client_id FROM oauth_clients ORDER BY client_id`)).toEqual([
          { client_id: 'cl_cli' },
          { client_id: 'lnk-dashboard' },
        ]);
      },
    });
  });
});
