import { DataSource } from 'typeorm';
import { Webhook, WebhookEventType, WebhookRepository } from '@lnk/webhooks/domain';
import { Page, PageRequest, pageOf, QuotaExceededError } from '@lnk/shared/kernel';
import { bool, countOf, firstOf, inTransaction, int, lockKey, nullable, Row, rowsOf, sql, text, textArray, textOrNull, timestamp } from '@lnk/shared/database';

const COLUMNS = 'id, owner_id, url, events, link_ids, description, sealed_secret, is_active, disabled_reason, consecutive_failures, created_at, updated_at';
const linkIdsOf = nullable(textArray);

const toWebhook = (r: Row) =>
  new Webhook({
    id: text(r, 'id'),
    ownerId: text(r, 'owner_id'),
    url: text(r, 'url'),
    // Written only from the domain's checked list.
    events: textArray(r, 'events') as WebhookEventType[],
    linkIds: linkIdsOf(r, 'link_ids'),
    description: text(r, 'description'),
    sealedSecret: text(r, 'sealed_secret'),
    isActive: bool(r, 'is_active'),
    disabledReason: textOrNull(r, 'disabled_reason'),
    consecutiveFailures: int(r, 'consecutive_failures'),
    createdAt: timestamp(r, 'created_at'),
    updatedAt: timestamp(r, 'updated_at'),
  });

export class TypeormWebhookRepository extends WebhookRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  /** The owner's webhooks are counted under an advisory lock of the owner's: two creations cannot both pass the limit. */
  async insertWithinLimit(webhook: Webhook, limit: number): Promise<void> {
    const p = webhook.toProps();
    await inTransaction(this.dataSource, async () => {
      await lockKey(this.dataSource, `webhooks:${p.ownerId}`);
      const used = await countOf(this.dataSource, 'SELECT count(*) AS n FROM webhooks WHERE owner_id = $1', [p.ownerId]);
      if (used >= limit) throw new QuotaExceededError('webhooks', used, limit);
      await sql(
        this.dataSource,
        `INSERT INTO webhooks (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [p.id, p.ownerId, p.url, p.events, p.linkIds, p.description, p.sealedSecret, p.isActive, p.disabledReason, p.consecutiveFailures, p.createdAt, p.updatedAt],
      );
    });
  }

  async findOfOwner(ownerId: string, id: string): Promise<Webhook | null> {
    return firstOf(await sql(this.dataSource, `SELECT ${COLUMNS} FROM webhooks WHERE id = $1 AND owner_id = $2`, [id, ownerId]), toWebhook);
  }

  async listOfOwner(ownerId: string, page: PageRequest): Promise<Page<Webhook>> {
    const total = await countOf(this.dataSource, 'SELECT count(*) AS n FROM webhooks WHERE owner_id = $1', [ownerId]);
    const result = await sql(this.dataSource, `SELECT ${COLUMNS} FROM webhooks WHERE owner_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, [ownerId, page.limit, page.start]);
    return pageOf(rowsOf(result, toWebhook), total, page);
  }

  async update(webhook: Webhook): Promise<void> {
    const p = webhook.toProps();
    await sql(
      this.dataSource,
      `UPDATE webhooks SET url = $3, events = $4, link_ids = $5, description = $6, sealed_secret = $7, is_active = $8, disabled_reason = $9,
              consecutive_failures = CASE WHEN $10::integer = 0 THEN 0 ELSE consecutive_failures END, updated_at = $11
        WHERE id = $1 AND owner_id = $2`,
      [p.id, p.ownerId, p.url, p.events, p.linkIds, p.description, p.sealedSecret, p.isActive, p.disabledReason, p.consecutiveFailures, p.updatedAt],
    );
  }

  async deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    const result = await sql(this.dataSource, 'DELETE FROM webhooks WHERE id = $1 AND owner_id = $2', [id, ownerId]);
    return result.affected > 0;
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM webhooks WHERE owner_id = $1', [ownerId]);
  }
}
