import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Compact outbox entries for high-rate events (link.clicked): the click write stores one row per (write,
 * matching webhook) holding the events' ids, times and bodies, instead of one delivery row per click.
 * The delivery worker expands a batch into deliveries (ids md5(event id || webhook id), as enqueued
 * directly) and deletes it in one statement. A deleted webhook's batches go with it.
 */
export class WebhookEventBatches1764360000000 implements MigrationInterface {
  name = 'WebhookEventBatches1764360000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_event_batches (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        webhook_id char(24) NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        event_type text NOT NULL,
        event_ids text[] NOT NULL,
        ats timestamptz[] NOT NULL,
        bodies text[] NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX webhook_event_batches_webhook_idx ON webhook_event_batches (webhook_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_event_batches`);
  }
}
