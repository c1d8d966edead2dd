import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fair claims (issue 27): the claim takes each webhook's oldest due deliveries in turns, within the
 * webhook's in-flight limit (TypeormWebhookOutbox.claimDue).
 * - `webhook_deliveries.leased_until`: set by a claim, cleared when the outcome is recorded; a delivery is
 *   in flight while it is in the future (a worker that died leaves it to run out). Indexed only where set:
 *   a handful of rows, counted per webhook at each claim.
 * - `webhooks.in_flight_limit`: lowered after slow answers, raised back after prompt ones; null: the
 *   configured cap (WEBHOOKS_MAX_IN_FLIGHT), so that a webhook that was never slow stores nothing.
 * - `webhook_deliveries_webhook_due_idx`: a webhook's pending deliveries in due order, for the per-webhook
 *   probes (and the loose scan of the webhooks with pending ones).
 * Columns without defaults: no table rewrite; the rows pending before it are simply not in flight.
 */
export class WebhookFairClaims1764427000000 implements MigrationInterface {
  name = 'WebhookFairClaims1764427000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz`);
    await db.query(`ALTER TABLE webhooks ADD COLUMN in_flight_limit integer`);
    await db.query(
      `CREATE INDEX webhook_deliveries_webhook_due_idx ON webhook_deliveries (webhook_id, next_attempt_at) WHERE status = 'pending'`,
    );
    await db.query(`CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (webhook_id) WHERE leased_until IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhook_deliveries_leased_idx`);
    await db.query(`DROP INDEX webhook_deliveries_webhook_due_idx`);
    await db.query(`ALTER TABLE webhooks DROP COLUMN in_flight_limit`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN leased_until`);
  }
}
