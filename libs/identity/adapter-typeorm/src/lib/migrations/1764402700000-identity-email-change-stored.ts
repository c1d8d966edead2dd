import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 27: an e-mail change stores the new address at once (spec section 3), so the requested address
 * kept beside the account's (`pending_email`) goes. A pending request is dropped, not applied: its
 * account was told it signs in with its confirmed address until the link is followed, and applying it
 * would move sign-in names nobody confirmed. Links mailed for such requests, or for any address an
 * account no longer has, stop working.
 *
 * `email_changed_at` marks an account whose address came from a change: no identity-provider sign-in is
 * joined to it on the strength of the address. For accounts from before, a change is known by the link
 * that confirmed the current address having been made after the account (a registration's link is made
 * with it); the moment it was confirmed stands for the change.
 */
export class IdentityEmailChangeStored1764402700000 implements MigrationInterface {
  name = 'IdentityEmailChangeStored1764402700000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ADD COLUMN email_changed_at timestamptz(3)`);
    await db.query(`
      UPDATE users u SET email_changed_at = c.confirmed_at
        FROM (SELECT v.user_id, max(v.used_at) AS confirmed_at
                FROM email_verifications v JOIN users w ON w.id = v.user_id
               WHERE v.used_at IS NOT NULL AND v.email = w.email AND v.created_at > w.created_at + interval '1 second'
               GROUP BY v.user_id) c
       WHERE u.id = c.user_id`);
    await db.query(`
      UPDATE email_verifications v SET used_at = now()
        FROM users u
       WHERE u.id = v.user_id AND v.used_at IS NULL AND v.email <> u.email`);
    await db.query(`ALTER TABLE users DROP COLUMN pending_email`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ADD COLUMN pending_email varchar(254)`);
    await db.query(`ALTER TABLE users DROP COLUMN email_changed_at`);
  }
}
