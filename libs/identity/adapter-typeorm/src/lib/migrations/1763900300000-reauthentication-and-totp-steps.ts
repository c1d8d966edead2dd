import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each token family's sign-in happened (sensitive account actions need a recent one; tokens issued
 * before this migration count as old), a two-factor enrolment awaiting its first code, and the last TOTP
 * step used (a code is accepted once).
 */
export class ReauthenticationAndTotpSteps1763900300000 implements MigrationInterface {
  name = 'ReauthenticationAndTotpSteps1763900300000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE oauth_tokens ADD COLUMN auth_time timestamptz(3)`);
    await db.query(`ALTER TABLE users ADD COLUMN two_factor_pending_secret text`);
    await db.query(`ALTER TABLE users ADD COLUMN two_factor_pending_at timestamptz(3)`);
    await db.query(`ALTER TABLE users ADD COLUMN two_factor_last_step bigint`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users DROP COLUMN two_factor_last_step`);
    await db.query(`ALTER TABLE users DROP COLUMN two_factor_pending_at`);
    await db.query(`ALTER TABLE users DROP COLUMN two_factor_pending_secret`);
    await db.query(`ALTER TABLE oauth_tokens DROP COLUMN auth_time`);
  }
}
