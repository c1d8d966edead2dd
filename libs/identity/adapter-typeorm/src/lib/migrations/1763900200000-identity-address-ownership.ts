import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Identity-provider accounts linked by issuer and subject (not by e-mail), a requested address kept
 * apart from the one that signs in until it is confirmed, and the log that limits e-mail changes.
 */
export class IdentityAddressOwnership1763900200000 implements MigrationInterface {
  name = 'IdentityAddressOwnership1763900200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ADD COLUMN pending_email varchar(254)`);
    await db.query(`
      CREATE TABLE idp_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (issuer, subject)
      )`);
    await db.query(`CREATE INDEX idp_identities_user_idx ON idp_identities (user_id)`);
    await db.query(`
      CREATE TABLE email_change_requests (
        user_id char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        requested_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX email_change_requests_user_idx ON email_change_requests (user_id, requested_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE email_change_requests`);
    await db.query(`DROP TABLE idp_identities`);
    await db.query(`ALTER TABLE users DROP COLUMN pending_email`);
  }
}
