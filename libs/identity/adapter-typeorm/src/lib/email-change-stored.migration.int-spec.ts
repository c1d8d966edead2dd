import { testMigration } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { FirstPartyClients1763900400000 } from './migrations/1763900400000-first-party-clients';
import { IdentityAccounts1763800000000 } from './migrations/1763800000000-identity-accounts';
import { IdentityAddressOwnership1763900200000 } from './migrations/1763900200000-identity-address-ownership';
import { IdentityTokens1763800100000 } from './migrations/1763800100000-identity-tokens';
import { ReauthenticationAndTotpSteps1763900300000 } from './migrations/1763900300000-reauthentication-and-totp-steps';

const id = (c: string) => c.repeat(24);
const hash = (c: string) => c.repeat(64);
const t0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

// Rows of the pending-address model (issue 11) meet the stored-address model (issue 27).
describe('the e-mail-change-stored migration', () => {
  it('drops pending requests and their links, and marks accounts whose address a confirmed change gave them', async () => {
    await testMigration({
      before: [
        {
          migrations: [
            IdentityAccounts1763800000000,
            IdentityTokens1763800100000,
            IdentityAddressOwnership1763900200000,
            ReauthenticationAndTotpSteps1763900300000,
            FirstPartyClients1763900400000,
          ],
        },
      ],
      seed: async (before) => {
        const user = (c: string, email: string, pending: string | null) =>
          before.query(
            `INSERT INTO users (id, email, is_verified, pending_email, created_at, updated_at) VALUES ($1, $2, true, $3, $4, $4)`,
            [id(c), email, pending, t0],
          );
        const link = (c: string, user: string, email: string, created: Date, used: Date | null) =>
          before.query(
            'INSERT INTO email_verifications (id, user_id, email, token_hash, ' +
              'expires_at, created_at, used_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
            [id(c), id(user), email, hash(c), at(48 * 3600_000), created, used],
          );
        // a: registered, confirmed with its registration link, then asked for another address (pending, unconfirmed).
        await user('a', 'ada@example.com', 'ada.next@example.com');
        await link('1', 'a', 'ada@example.com', at(100), at(60_000));
        await link('2', 'a', 'ada.next@example.com', at(3600_000), null);
        // b: moved to its address by a change it confirmed an hour after it was made.
        await user('b', 'bob.new@example.com', null);
        await link('3', 'b', 'bob.new@example.com', at(3600_000), at(3900_000));
        // c: made unverified; its registration link is still unused.
        await user('c', 'carol@example.com', null);
        await link('4', 'c', 'carol@example.com', at(200), null);
      },
      after: [identityPersistence],
      check: async (after) => {
        const users = await after.query(`SELECT id, email, email_changed_at FROM users ORDER BY id`);
        expect(users).toEqual([
          { id: id('a'), email: 'ada@example.com', email_changed_at: null },
          { id: id('b'), email: 'bob.new@example.com', email_changed_at: at(3900_000) },
          { id: id('c'), email: 'carol@example.com', email_changed_at: null },
        ]);
        const columns = await after.query(
          `SELECT column_name FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'pending_email'`,
        );
        expect(columns).toEqual([]);
        const links = await after.query(`SELECT id, used_at IS NOT NULL AS used FROM email_verifications ORDER BY id`);
        expect(links).toEqual([
          { id: id('1'), used: true },
          { id: id('2'), used: true }, // for the dropped request: it confirms nothing now
          { id: id('3'), used: true },
          { id: id('4'), used: false },
        ]);
      },
    });
  });
});
