import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * First-party clients belong to the service: no owner (so deleting the account that asked for one no
 * longer cascades it and every user's tokens away), with the account recorded in `requested_by`.
 * Public clients (no secret, PKCE instead) may exist, so the secret becomes optional.
 */
export class FirstPartyClients1763900400000 implements MigrationInterface {
  name = 'FirstPartyClients1763900400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE oauth_clients ADD COLUMN requested_by char(24) REFERENCES users (id) ON DELETE SET NULL`);
    await db.query(`ALTER TABLE oauth_clients ALTER COLUMN owner_id DROP NOT NULL`);
    await db.query(`ALTER TABLE oauth_clients ALTER COLUMN secret_hash DROP NOT NULL`);
    await db.query(`UPDATE oauth_clients SET requested_by = owner_id, owner_id = NULL WHERE is_first_party`);
    await db.query(`ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_owner_check CHECK (is_first_party = (owner_id IS NULL))`);
    await db.query(`ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_public_check CHECK (is_first_party OR secret_hash IS NOT NULL)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE oauth_clients DROP CONSTRAINT oauth_clients_public_check`);
    await db.query(`ALTER TABLE oauth_clients DROP CONSTRAINT oauth_clients_owner_check`);
    // A first-party client goes back to the account that asked for it; one nobody asked for cannot.
    await db.query(`DELETE FROM oauth_clients WHERE owner_id IS NULL AND requested_by IS NULL`);
    await db.query(`UPDATE oauth_clients SET owner_id = requested_by WHERE owner_id IS NULL`);
    await db.query(`DELETE FROM oauth_clients WHERE secret_hash IS NULL`);
    await db.query(`ALTER TABLE oauth_clients ALTER COLUMN secret_hash SET NOT NULL`);
    await db.query(`ALTER TABLE oauth_clients ALTER COLUMN owner_id SET NOT NULL`);
    await db.query(`ALTER TABLE oauth_clients DROP COLUMN requested_by`);
  }
}
