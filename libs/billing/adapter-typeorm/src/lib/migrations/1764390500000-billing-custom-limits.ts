import { MigrationInterface, QueryRunner } from 'typeorm';

/** Limits an operator gives one account in place of its plan's (`account:set-limits`); null: the plan's. */
export class BillingCustomLimits1764390500000 implements MigrationInterface {
  name = 'BillingCustomLimits1764390500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE billing_account_limits (
        user_id char(24) PRIMARY KEY,
        max_links integer CHECK (max_links >= 0),
        max_domains integer CHECK (max_domains >= 0),
        max_tags integer CHECK (max_tags >= 0),
        updated_at timestamptz(3) NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE billing_account_limits`);
  }
}
