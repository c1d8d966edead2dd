import { MigrationInterface, QueryRunner } from 'typeorm';

/** Subscriptions, the checkouts that buy them, and the built-in sandbox provider's sessions. */
export class BillingSubscriptions1763800500000 implements MigrationInterface {
  name = 'BillingSubscriptions1763800500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE billing_subscriptions (
        id char(24) PRIMARY KEY,
        user_id char(24) NOT NULL,
        plan_id varchar(40) NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('active', 'past_due', 'canceled')),
        start_date timestamptz(3) NOT NULL,
        ended_at timestamptz(3),
        checkout_session_id varchar(255),
        provider_subscription_id varchar(255),
        updated_at timestamptz(3) NOT NULL
      )`);
    // Exactly one current (not canceled) subscription per account.
    await db.query(`CREATE UNIQUE INDEX billing_subscriptions_current_key ON billing_subscriptions (user_id) WHERE status <> 'canceled'`);
    await db.query(`CREATE UNIQUE INDEX billing_subscriptions_checkout_key ON billing_subscriptions (checkout_session_id)`);
    await db.query(`CREATE INDEX billing_subscriptions_provider_idx ON billing_subscriptions (provider_subscription_id)`);
    await db.query(`CREATE INDEX billing_subscriptions_user_idx ON billing_subscriptions (user_id)`);
    await db.query(`
      CREATE TABLE billing_checkouts (
        session_id varchar(255) PRIMARY KEY,
        user_id char(24) NOT NULL,
        plan_id varchar(40) NOT NULL,
        created_at timestamptz(3) NOT NULL,
        expires_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX billing_checkouts_user_idx ON billing_checkouts (user_id)`);
    await db.query(`
      CREATE TABLE billing_sandbox_sessions (
        id varchar(64) PRIMARY KEY,
        user_id char(24) NOT NULL,
        plan_id varchar(40) NOT NULL,
        plan_name varchar(200) NOT NULL,
        price numeric(12, 2) NOT NULL,
        currency char(3) NOT NULL,
        success_url text NOT NULL,
        cancel_url text NOT NULL,
        created_at timestamptz(3) NOT NULL,
        expires_at timestamptz(3) NOT NULL,
        paid_at timestamptz(3)
      )`);
    await db.query(`CREATE INDEX billing_sandbox_sessions_user_idx ON billing_sandbox_sessions (user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE billing_sandbox_sessions`);
    await db.query(`DROP TABLE billing_checkouts`);
    await db.query(`DROP TABLE billing_subscriptions`);
  }
}
