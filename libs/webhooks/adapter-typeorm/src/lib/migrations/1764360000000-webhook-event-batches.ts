import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Compact outbox entries for high-rate events (link.clicked): the click write stores one row per (write,
 * matching webhook, up to 1,000 events) holding its owner's event series (EventSeries: a body split where the moment goes,
 * and the moments, as `[[parts, [ms, ...]], ...]`), instead of one delivery row of ~400 bytes per click.
 * The delivery worker expands a batch into deliveries (event ids derived from the batch's id and the
 * event's place in it, delivery ids md5(event id || webhook id) as enqueued directly) and deletes it in
 * one statement. A deleted webhook's batches go with it. `events`: how many the batch holds.
 */
export class WebhookEventBatches1764360000000 implements MigrationInterface {
  name = 'WebhookEventBatches1764360000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_event_batches (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        webhook_id char(24) NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        event_type text NOT NULL,
        series jsonb NOT NULL,
        events integer NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX webhook_event_batches_webhook_idx ON webhook_event_batches (webhook_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_event_batches`);
  }
}
