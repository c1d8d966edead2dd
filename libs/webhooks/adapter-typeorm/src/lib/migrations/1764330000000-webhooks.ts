import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (issue 19) and their outbox. A delivery is one event for one webhook: its id is derived from
 * both (md5 of event id and webhook id), so an event cannot be enqueued twice for a webhook, and its
 * `webhook-id` header is the same on every attempt. `next_attempt_at` orders the due ones; a worker that
 * takes one pushes it a lease ahead (see TypeormWebhookOutbox.claimDue). The body is stored as sent, the
 * bytes that are signed.
 */
export class Webhooks1764330000000 implements MigrationInterface {
  name = 'Webhooks1764330000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhooks (
        id char(24) PRIMARY KEY,
        owner_id char(24) NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        link_ids char(24)[],
        description text NOT NULL DEFAULT '',
        sealed_secret text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        disabled_reason text,
        consecutive_failures integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX webhooks_owner_idx ON webhooks (owner_id, id)`);
    await db.query(`
      CREATE TABLE webhook_deliveries (
        id char(32) PRIMARY KEY,
        webhook_id char(24) NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        event_id char(24) NOT NULL,
        event_type text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_attempt_at timestamptz,
        response_status integer,
        last_error text,
        created_at timestamptz NOT NULL,
        finished_at timestamptz
      )`);
    await db.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (finished_at) WHERE status <> 'pending'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`DROP TABLE webhooks`);
  }
}
