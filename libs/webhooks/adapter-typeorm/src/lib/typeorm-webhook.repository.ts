import { DataSource } from 'typeorm';
import { Webhook, WebhookEventType, WebhookProps, WebhookRepository } from '@lnk/webhooks/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import {
  afterId,
  bool,
  firstOf,
  int,
  nullable,
  OwnedRowsRepository,
  Quota,
  Row,
  rowsOf,
  sql,
  text,
  textArray,
  textOrNull,
  timestamp,
} from '@lnk/shared/database';

const COLUMNS =
  'id, owner_id, url, events, link_ids, description, sealed_secret, is_active, ' +
  'disabled_reason, consecutive_failures, created_at, updated_at';
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

/** The owner's row in `webhooks_usage` (see its migration): what the limit and the list's total read. */
const WEBHOOKS_USAGE = { table: 'webhooks_usage', resource: 'webhooks' };

/** No unique constraint of webhooks stands for a rule on an input field: none to guard. */
export class TypeormWebhookRepository extends OwnedRowsRepository<WebhookProps> implements WebhookRepository {
  constructor(dataSource: DataSource) {
    super(dataSource, 'webhooks', WEBHOOKS_USAGE, null);
  }

  /**
   * Within the owner's limit as links, tags and custom domains are within theirs: the owner's usage row is taken first (insertWithinQuota).
   */
  insertWithinLimit(webhook: Webhook, limit: number): Promise<void> {
    return this.insertWithinQuota(webhook, limit);
  }

  protected insertCounted(p: WebhookProps, quota: Quota): Promise<void> {
    return this.insertLockingFirst(quota, () =>
      sql(this.dataSource, `INSERT INTO webhooks (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, [
        p.id,
        p.ownerId,
        p.url,
        p.events,
        p.linkIds,
        p.description,
        p.sealedSecret,
        p.isActive,
        p.disabledReason,
        p.consecutiveFailures,
        p.createdAt,
        p.updatedAt,
      ]),
    );
  }

  async findOfOwner(ownerId: string, id: string): Promise<Webhook | null> {
    return firstOf(await sql(this.dataSource, `SELECT ${COLUMNS} FROM webhooks WHERE id = $1 AND owner_id = $2`, [id, ownerId]), toWebhook);
  }

  async listOfOwner(ownerId: string, page: PageRequest): Promise<Page<Webhook>> {
    const total = await this.countOfOwner(ownerId);
    const params: unknown[] = [ownerId];
    const after = afterId(page, params);
    const result = await sql(
      this.dataSource,
      `SELECT ${COLUMNS} FROM webhooks WHERE owner_id = $1${after} ORDER BY id DESC LIMIT ${page.rows} OFFSET ${page.offset}`,
      params,
    );
    return pageOf(rowsOf(result, toWebhook), total, page);
  }

  async update(webhook: Webhook, unchangedSince?: Date): Promise<boolean> {
    const p = webhook.toProps();
    // The condition (If-Match) and the write are one statement: a write since the read moved updated_at on.
    const { affected } = await sql(
      this.dataSource,
      `UPDATE webhooks SET url = $3, events = $4, link_ids = $5, description = $6, sealed_secret = $7, is_active = $8, disabled_reason = $9,
              consecutive_failures = CASE WHEN $10::integer = 0 THEN 0 ELSE consecutive_failures END,
              updated_at = GREATEST($11, updated_at + interval '1 millisecond'),
              -- Another receiver: how slow the last one was says nothing of it.
              in_flight_limit = CASE WHEN url = $3 THEN in_flight_limit END
        WHERE id = $1 AND owner_id = $2 AND ($12::timestamptz IS NULL OR updated_at = $12)`,
      [
        p.id,
        p.ownerId,
        p.url,
        p.events,
        p.linkIds,
        p.description,
        p.sealedSecret,
        p.isActive,
        p.disabledReason,
        p.consecutiveFailures,
        p.updatedAt,
        unchangedSince ?? null,
      ],
    );
    return affected > 0;
  }
}
