import { DataSource } from 'typeorm';
import { AttemptOutcome, ClaimedDelivery, Delivery, DeliveryStatus, eventBody, WebhookEvent, WebhookEventType, WebhookOutbox } from '@lnk/webhooks/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import { countOf, int, JsonColumn, jsonRows, jsonRowsOf, nullable, oneOf, Row, rowsOf, sql, text, textOrNull, timestamp, timestampOrNull } from '@lnk/shared/database';

const EVENT_COLUMNS: JsonColumn[] = [['event_id', 'char(24)'], ['type', 'text'], ['owner_id', 'char(24)'], ['link_id', 'char(24)'], ['at', 'timestamptz'], ['body', 'text']];
/** Events per statement: a click write of a busy second can carry thousands. */
const ENQUEUE_CHUNK = 2_000;
/** The longest error text kept for the owner to read. */
const MAX_ERROR_LENGTH = 500;

const messageIdOf = (id: string) => `msg_${id}`;
const status = oneOf<DeliveryStatus>(['pending', 'delivered', 'failed']);
const intOrNull = nullable(int);

const toDelivery = (r: Row): Delivery => {
  const s = status(r, 'status');
  return {
    id: text(r, 'id'),
    messageId: messageIdOf(text(r, 'id')),
    eventId: text(r, 'event_id'),
    eventType: text(r, 'event_type'),
    status: s,
    attempts: int(r, 'attempts'),
    lastAttemptAt: timestampOrNull(r, 'last_attempt_at'),
    responseStatus: intOrNull(r, 'response_status'),
    lastError: textOrNull(r, 'last_error'),
    nextAttemptAt: s === 'pending' ? timestamp(r, 'next_attempt_at') : null,
    createdAt: timestamp(r, 'created_at'),
    deliveredAt: s === 'delivered' ? timestampOrNull(r, 'finished_at') : null,
  };
};

const toClaimed = (r: Row): ClaimedDelivery => ({
  id: text(r, 'id'),
  messageId: messageIdOf(text(r, 'id')),
  webhookId: text(r, 'webhook_id'),
  url: text(r, 'url'),
  sealedSecret: text(r, 'sealed_secret'),
  body: text(r, 'body'),
  attempts: int(r, 'attempts'),
});

const errorText = (error: string | null) => (error === null ? null : error.slice(0, MAX_ERROR_LENGTH));

/**
 * The events of a batched enqueue as a relation: parsed once as jsonb (each `->>` on a json value parses
 * the element again: three times the statement's cost at a click write's thousands of events).
 */
const BATCHED_EVENTS = `(SELECT r->>0 AS event_id, r->>1 AS type, (r->>2)::char(24) AS owner_id, (r->>3)::char(24) AS link_id, (r->>4)::timestamptz AS at, r->>5 AS body
   FROM jsonb_array_elements($1::jsonb) AS r) AS e`;

const eventRows = (events: WebhookEvent[]) => events.map((e) => [e.id, e.type, e.ownerId, e.linkId, e.at.toISOString(), eventBody(e)]);

/**
 * The webhooks of the events' owners that want them: active, subscribed to the type, and either without a
 * link filter or filtering on the event's link. An expiry (found by a scan, possibly of a window in the
 * past) goes to the webhooks that existed then.
 */
const SUBSCRIBED = `e.type = ANY (w.events) AND (w.link_ids IS NULL OR e.link_id = ANY (w.link_ids)) AND (e.type <> 'link.expired' OR w.created_at <= e.at)`;

/**
 * The outbox in PostgreSQL (or the embedded PGlite, which runs the same statements): deliveries are rows
 * written in the caller's transaction, claimed with FOR UPDATE SKIP LOCKED.
 */
export class TypeormWebhookOutbox extends WebhookOutbox {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async enqueue(events: WebhookEvent[], onlyWebhookId?: string): Promise<number> {
    let made = 0;
    for (let start = 0; start < events.length; start += ENQUEUE_CHUNK) {
      const rows = eventRows(events.slice(start, start + ENQUEUE_CHUNK));
      const matches = onlyWebhookId === undefined ? SUBSCRIBED : `w.id = $2`;
      const result = await sql(
        this.dataSource,
        `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, next_attempt_at, created_at)
         SELECT md5(e.event_id || w.id), w.id, e.event_id, e.type, e.body, e.at, e.at
           FROM ${jsonRowsOf(1, EVENT_COLUMNS, 'e')} JOIN webhooks w ON w.owner_id = e.owner_id AND w.is_active AND ${matches}
         ON CONFLICT (id) DO NOTHING`,
        onlyWebhookId === undefined ? [jsonRows(rows)] : [jsonRows(rows), onlyWebhookId],
      );
      made += result.affected;
    }
    return made;
  }

  async enqueueBatched(events: WebhookEvent[]): Promise<number> {
    let made = 0;
    for (let start = 0; start < events.length; start += ENQUEUE_CHUNK) {
      // Matched now, as `enqueue` does (who wants the event is decided when it happens); one row per
      // (webhook, type) with the events' ids, times and bodies in three aligned arrays, fed by one aggregation.
      const result = await sql(
        this.dataSource,
        `INSERT INTO webhook_event_batches (webhook_id, event_type, event_ids, ats, bodies, created_at)
         SELECT w.id, e.type, array_agg(e.event_id), array_agg(e.at), array_agg(e.body), min(e.at)
           FROM ${BATCHED_EVENTS} JOIN webhooks w ON w.owner_id = e.owner_id AND w.is_active AND ${SUBSCRIBED}
          GROUP BY w.id, e.type`,
        [jsonRows(eventRows(events.slice(start, start + ENQUEUE_CHUNK)))],
      );
      made += result.affected;
    }
    return made;
  }

  async expandBatches(now: Date, maxDue: number, maxBatches: number): Promise<number> {
    let made = 0;
    for (let n = 0; n < maxBatches; n++) {
      // One statement, so one transaction: the batch is locked (another caller skips it), its deliveries
      // are made and it is deleted, or none of it. Only while fewer than maxDue deliveries of active
      // webhooks are due; a turned-off webhook's batches wait, as its deliveries do.
      const result = await sql(
        this.dataSource,
        `WITH b AS (
           DELETE FROM webhook_event_batches WHERE id = (
             SELECT q.id FROM webhook_event_batches q JOIN webhooks qw ON qw.id = q.webhook_id AND qw.is_active
              WHERE (SELECT count(*) FROM (
                      SELECT 1 FROM webhook_deliveries d JOIN webhooks dw ON dw.id = d.webhook_id AND dw.is_active
                       WHERE d.status = 'pending' AND d.next_attempt_at <= $1 LIMIT $2) due) < $2
              ORDER BY q.id LIMIT 1
              FOR UPDATE OF q SKIP LOCKED)
           RETURNING webhook_id, event_type, event_ids, ats, bodies),
         made AS (
           INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, next_attempt_at, created_at)
           SELECT md5(e.event_id || b.webhook_id), b.webhook_id, e.event_id, b.event_type, e.body, e.at, e.at
             FROM b, unnest(b.event_ids, b.ats, b.bodies) AS e(event_id, at, body)
           ON CONFLICT (id) DO NOTHING
           RETURNING 1)
         SELECT (SELECT count(*) FROM b)::int AS batches, (SELECT count(*) FROM made)::int AS made`,
        [now, maxDue],
      );
      const row = result.rows[0] as Row;
      if (int(row, 'batches') === 0) break;
      made += int(row, 'made');
    }
    return made;
  }

  async claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    // One statement: the rows are locked while it runs (others skip them) and, once it commits, are not
    // due before the lease ends; a competing claim that waited re-reads them and finds them not due.
    const result = await sql(
      this.dataSource,
      `UPDATE webhook_deliveries d SET next_attempt_at = $2
         FROM webhooks w
        WHERE w.id = d.webhook_id AND d.id IN (
          SELECT q.id FROM webhook_deliveries q JOIN webhooks qw ON qw.id = q.webhook_id AND qw.is_active
           WHERE q.status = 'pending' AND q.next_attempt_at <= $1
           ORDER BY q.next_attempt_at LIMIT $3
           FOR UPDATE OF q SKIP LOCKED)
        RETURNING d.id, d.webhook_id, d.body, d.attempts, w.url, w.sealed_secret`,
      [now, new Date(now.getTime() + leaseMs), limit],
    );
    return rowsOf(result, toClaimed);
  }

  async recordSuccess(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    await sql(
      this.dataSource,
      `WITH d AS (
         UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_attempt_at = $2, response_status = $3, last_error = NULL, finished_at = $2
          WHERE id = $1 RETURNING webhook_id)
       UPDATE webhooks SET consecutive_failures = 0 WHERE id = (SELECT webhook_id FROM d) AND consecutive_failures <> 0`,
      [delivery.id, outcome.at, outcome.responseStatus],
    );
  }

  async recordFailure(delivery: ClaimedDelivery, outcome: AttemptOutcome, nextAttemptAt: Date | null): Promise<number> {
    const result = await sql(
      this.dataSource,
      `WITH d AS (
         UPDATE webhook_deliveries
            SET attempts = attempts + 1, last_attempt_at = $2, response_status = $3, last_error = $4,
                status = CASE WHEN $5::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
                next_attempt_at = COALESCE($5::timestamptz, next_attempt_at),
                finished_at = CASE WHEN $5::timestamptz IS NULL THEN $2::timestamptz END
          WHERE id = $1 RETURNING webhook_id)
       UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = (SELECT webhook_id FROM d) RETURNING consecutive_failures`,
      [delivery.id, outcome.at, outcome.responseStatus, errorText(outcome.error), nextAttemptAt],
    );
    return result.rows.length ? int(result.rows[0] as Row, 'consecutive_failures') : 0;
  }

  async disableWebhook(webhookId: string, reason: string, at: Date): Promise<void> {
    await sql(this.dataSource, 'UPDATE webhooks SET is_active = false, disabled_reason = $2, updated_at = $3 WHERE id = $1 AND is_active', [webhookId, reason, at]);
  }

  async listOfWebhook(webhookId: string, page: PageRequest): Promise<Page<Delivery>> {
    const total = await countOf(this.dataSource, 'SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = $1', [webhookId]);
    const result = await sql(
      this.dataSource,
      `SELECT id, event_id, event_type, status, attempts, last_attempt_at, response_status, last_error, next_attempt_at, created_at, finished_at
         FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [webhookId, page.limit, page.start],
    );
    return pageOf(rowsOf(result, toDelivery), total, page);
  }

  async subscriptions(): Promise<Map<WebhookEventType, Set<string>>> {
    const result = await sql(this.dataSource, 'SELECT DISTINCT e.type, w.owner_id FROM webhooks w, unnest(w.events) AS e(type) WHERE w.is_active');
    const byType = new Map<WebhookEventType, Set<string>>();
    for (const { type, owner } of rowsOf(result, (r) => ({ type: text(r, 'type') as WebhookEventType, owner: text(r, 'owner_id') }))) {
      const owners = byType.get(type) ?? new Set<string>();
      owners.add(owner);
      byType.set(type, owners);
    }
    return byType;
  }

  async purgeFinished(before: Date): Promise<number> {
    const result = await sql(this.dataSource, `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < $1`, [before]);
    return result.affected;
  }
}
