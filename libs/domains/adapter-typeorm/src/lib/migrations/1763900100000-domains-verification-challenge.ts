import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each (account, domain) row gets its own random challenge, published by the owner as TXT
 * `_lnk-challenge.<name>`; verification needs it beside the CNAME. Existing rows get a fresh random
 * value (gen_random_uuid draws on the database's strong random source): verified ones are re-checked
 * and lose their verification unless their owner publishes it. Verified domains are re-checked, so a
 * row records when and why a re-check took the verification away.
 */
export class DomainsVerificationChallenge1763900100000 implements MigrationInterface {
  name = 'DomainsVerificationChallenge1763900100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE custom_domains ADD COLUMN challenge varchar(64)`);
    await db.query(`UPDATE custom_domains SET challenge = replace(gen_random_uuid()::text, '-', '')`);
    await db.query(`ALTER TABLE custom_domains ALTER COLUMN challenge SET NOT NULL`);
    await db.query(`ALTER TABLE custom_domains ADD COLUMN verification_lost_at timestamptz(3)`);
    await db.query(`ALTER TABLE custom_domains ADD COLUMN verification_lost_reason varchar(500)`);
    await db.query(`ALTER TABLE custom_domains ADD COLUMN checked_at timestamptz(3)`);
    await db.query(`CREATE INDEX custom_domains_recheck_idx ON custom_domains (checked_at NULLS FIRST, id) WHERE is_verified`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX custom_domains_recheck_idx`);
    await db.query(`ALTER TABLE custom_domains DROP COLUMN checked_at`);
    await db.query(`ALTER TABLE custom_domains DROP COLUMN verification_lost_reason`);
    await db.query(`ALTER TABLE custom_domains DROP COLUMN verification_lost_at`);
    await db.query(`ALTER TABLE custom_domains DROP COLUMN challenge`);
  }
}
