import { DataSource } from 'typeorm';
import {
  AttemptOutcome,
  ClaimedDelivery,
  Delivery,
  DeliveryStatus,
  eventBody,
  EventSeries,
  WebhookEvent,
  WebhookEventType,
  WebhookOutbox,
} from '@lnk/webhooks/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import {
  countOf,
  int,
  JsonColumn,
  jsonRows,
  jsonRowsOf,
  nullable,
  oneOf,
  prepared,
  Row,
  rowsOf,
  sql,
  text,
  textOrNull,
  timestamp,
  timestampOrNull,
} from '@lnk/shared/database';

const EVENT_COLUMNS: JsonColumn[] = [
  ['event_id', 'char(24)'],
  ['type', 'text'],
  ['owner_id', 'char(24)'],
  ['link_id', 'char(24)'],
  ['at', 'timestamptz'],
  ['body', 'text'],
];
/** Events per statement: a click write of a busy second can carry thousands. */
const ENQUEUE_CHUNK = 2_000;
/** The most events one batch holds: what one step of the worker's expansion makes at most. */
const BATCH_EVENTS = 1_000;
/** A claim of n deliveries chooses among this many times n, the first in turn that no concurrent claim holds. */
const CLAIM_CANDIDATES = 4;
/** The longest error text kept for the owner to read. */
const MAX_ERROR_LENGTH = 500;

/**
 * A series' moments `ats[from..to)` as stored in a batch: the first in epoch milliseconds, then each one's
 * difference from the one before, in decimal, comma-separated ("1764400000000,0,1,0,2"). A click write's
 * moments are close together: a few characters each, one JSON string for PostgreSQL to take, where a JSON
 * array of 13-digit numbers cost it a jsonb number each (about 0.4 µs of its CPU per click, against 0.03).
 */
export function momentsText(ats: number[], from = 0, to = ats.length): string {
  let text = String(ats[from]);
  for (let i = from + 1; i < to; i++) text += `,${ats[i] - ats[i - 1]}`;
  return text;
}

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
  inFlightLimit: intOrNull(r, 'in_flight_limit'),
});

const errorText = (error: string | null) => (error === null ? null : error.slice(0, MAX_ERROR_LENGTH));

const eventRows = (events: WebhookEvent[]) => events.map((e) => [e.id, e.type, e.ownerId, e.linkId, e.at.toISOString(), eventBody(e)]);

/**
 * The webhooks of the events' owners that want them: active, subscribed to the type, and either without a
 * link filter or filtering on the event's link. An expiry (found by a scan, possibly of a window in the
 * past) goes to the webhooks that existed then.
 */
const SUBSCRIBED =
  'e.type = ANY (w.events) AND (w.link_ids IS NULL ' +
  `OR e.link_id = ANY (w.link_ids)) AND (e.type <> 'link.expired' ` +
  'OR w.created_at <= e.at)';

/**
 * The claim (see claimDue), prepared once per connection: its plan (a loose scan, two lateral probes per
 * webhook, a window) took PostgreSQL several times longer to make than to run.
 */
const CLAIM_DUE = prepared(
  `WITH RECURSIVE hooks(id) AS (
     SELECT min(webhook_id) FROM webhook_deliveries WHERE status = 'pending'
     UNION ALL
     SELECT (SELECT min(p.webhook_id) FROM webhook_deliveries p WHERE p.status = 'pending' AND p.webhook_id > h.id)
       FROM hooks h WHERE h.id IS NOT NULL),
   picked AS (
     SELECT c.id, c.turn, c.next_attempt_at
       FROM hooks h
       JOIN webhooks w ON w.id = h.id AND w.is_active
       CROSS JOIN LATERAL (
         SELECT least(coalesce(w.in_flight_limit, $4), $4) - count(*)::int AS room
           FROM webhook_deliveries f WHERE f.webhook_id = w.id AND f.leased_until > $1) r
       CROSS JOIN LATERAL (
         SELECT q.id, q.next_attempt_at, row_number() OVER (ORDER BY q.next_attempt_at) AS turn
           FROM (SELECT q.id, q.next_attempt_at FROM webhook_deliveries q
                  WHERE q.webhook_id = w.id AND q.status = 'pending' AND q.next_attempt_at <= $1
                  ORDER BY q.next_attempt_at LIMIT greatest(r.room, 0)) q) c
      ORDER BY c.turn, c.next_attempt_at
      LIMIT $3 * ${CLAIM_CANDIDATES}),
   taken AS (
     SELECT l.id
       FROM picked p
       CROSS JOIN LATERAL (
         SELECT l.id FROM webhook_deliveries l
          WHERE l.id = p.id AND l.status = 'pending' AND l.next_attempt_at <= $1
          FOR UPDATE SKIP LOCKED) l
      LIMIT $3)
   UPDATE webhook_deliveries d SET next_attempt_at = $2, leased_until = $2
     FROM webhooks w
    WHERE w.id = d.webhook_id AND d.id IN (SELECT id FROM taken)
    RETURNING d.id, d.webhook_id, d.body, d.attempts, w.url, w.sealed_secret, w.in_flight_limit`,
);

/** A run's successes, one statement for many (see recordSuccesses). */
const RECORD_SUCCESSES = prepared(
  `WITH d AS (
     UPDATE webhook_deliveries d SET status = 'delivered', attempts = d.attempts + 1, last_attempt_at = o.at, response_status = o.status,
       last_error = NULL, finished_at = o.at,
            leased_until = NULL
       FROM unnest($1::char(32)[], $2::timestamptz[], $3::int[]) AS o(id, at, status)
      WHERE d.id = o.id RETURNING d.webhook_id)
   UPDATE webhooks SET consecutive_failures = 0 WHERE id IN (SELECT webhook_id FROM d) AND consecutive_failures <> 0`,
);

/** A failed attempt (see recordFailure). */
const RECORD_FAILURE = prepared(
  `WITH d AS (
     UPDATE webhook_deliveries
        SET attempts = attempts + 1, last_attempt_at = $2, response_status = $3, last_error = $4, leased_until = NULL,
            status = CASE WHEN $5::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
            next_attempt_at = COALESCE($5::timestamptz, next_attempt_at),
            finished_at = CASE WHEN $5::timestamptz IS NULL THEN $2::timestamptz END
      WHERE id = $1 RETURNING webhook_id)
   UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = (SELECT webhook_id FROM d)
     RETURNING consecutive_failures`,
);

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

  async enqueueSeries(series: EventSeries[]): Promise<number> {
    // Pieces of at most BATCH_EVENTS events, numbered so that each number holds at most that many: a
    // batch is one (piece number, webhook), and the worker's expansion step is bounded by it.
    const pieces: unknown[][] = [];
    let number = 0;
    let inNumber = 0;
    for (const s of series) {
      for (let from = 0; from < s.ats.length;) {
        if (inNumber === BATCH_EVENTS) [number, inNumber] = [number + 1, 0];
        const take = Math.min(BATCH_EVENTS - inNumber, s.ats.length - from);
        pieces.push([s.ownerId, s.linkId, s.type, s.bodyParts, momentsText(s.ats, from, from + take), number, take]);
        [from, inNumber] = [from + take, inNumber + take];
      }
    }
    let made = 0;
    for (let start = 0; start < pieces.length; start += ENQUEUE_CHUNK) {
      // Matched now, as `enqueue` matches (who wants an event is decided when it happens), but per series,
      // not per event: a row per (piece number, webhook, type) holding its owner's matching series.
      const result = await sql(
        this.dataSource,
        `INSERT INTO webhook_event_batches (webhook_id, event_type, series, events, created_at)
         SELECT w.id, s->>2, jsonb_agg(jsonb_build_array(s->3, s->4)), sum((s->>6)::int), now()
           FROM jsonb_array_elements($1::jsonb) AS s
           JOIN webhooks w ON w.owner_id = (s->>0)::char(24) AND w.is_active AND (s->>2) = ANY (w.events) AND (w.link_ids IS NULL
             OR (s->>1)::char(24) = ANY (w.link_ids))
          GROUP BY s->>5, w.id, s->>2`,
        [jsonRows(pieces.slice(start, start + ENQUEUE_CHUNK))],
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
           RETURNING id, webhook_id, event_type, series),
         e AS (
           SELECT b.webhook_id, b.event_type, left(md5(b.id || '.' || s.n || '.' || a.n), 24) AS event_id, p.parts,
                  timestamptz 'epoch' + a.ms::bigint * interval '1 millisecond' AS at
             FROM b
             CROSS JOIN LATERAL jsonb_array_elements(b.series) WITH ORDINALITY AS s(v, n)
             CROSS JOIN LATERAL (SELECT array_agg(x.part ORDER BY x.o) AS parts FROM jsonb_array_elements_text(s.v->0) WITH ORDINALITY
               AS x(part, o)) p
             -- The moments: a text of differences (momentsText), or, written before it, a JSON array of them.
             CROSS JOIN LATERAL (
               SELECT sum(d.ms::bigint) OVER (ORDER BY d.n) AS ms, d.n
                 FROM unnest(string_to_array(CASE WHEN jsonb_typeof(s.v->1) = 'string' THEN s.v->>1 END, ',')) WITH ORDINALITY AS d(ms, n)
               UNION ALL
               SELECT x.ms::bigint, x.n
                 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(s.v->1) = 'array' THEN s.v->1 ELSE '[]' END) WITH ORDINALITY
                   AS x(ms, n)) a),
         made AS (
           INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, next_attempt_at, created_at)
           SELECT md5(e.event_id || e.webhook_id), e.webhook_id, e.event_id, e.event_type,
                  array_to_string(e.parts, '"' || to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'), e.at, e.at
             FROM e
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

  async claimDue(now: Date, limit: number, leaseMs: number, maxInFlightPerWebhook: number): Promise<ClaimedDelivery[]> {
    // One statement: the rows are locked while it runs (others skip them) and, once it commits, are in
    // flight (leased_until) and not due before the lease ends; a competing claim that waited re-reads them
    // and finds them not due.
    //  - hooks: the webhooks with pending deliveries, one index probe each (a loose scan of the pending
    //    index), rather than a scan of the whole backlog;
    //  - picked: for each active one, its oldest due deliveries, as many as its room (its in-flight limit
    //    less those in flight, the lease not over), numbered in its order; in turns (every webhook's first,
    //    then every one's second...), so a webhook with a backlog does not hold back the others;
    //  - taken: the first `limit` of them, in that order, that no other claim holds (SKIP LOCKED), each
    //    locked through its primary key as it is reached (not a scan of every due delivery), from a few
    //    times as many candidates, so that workers claiming at the same moment take different ones rather
    //    than collide. Two such claims each count the room before the other's lease: a webhook may then
    //    have up to twice its limit in flight, for the time of those sends.
    const result = await sql(this.dataSource, CLAIM_DUE, [now, new Date(now.getTime() + leaseMs), limit, maxInFlightPerWebhook]);
    return rowsOf(result, toClaimed);
  }

  async recordSuccesses(successes: { delivery: ClaimedDelivery; outcome: AttemptOutcome }[]): Promise<void> {
    if (successes.length === 0) return;
    await sql(this.dataSource, RECORD_SUCCESSES, [
      successes.map((s) => s.delivery.id),
      successes.map((s) => s.outcome.at),
      successes.map((s) => s.outcome.responseStatus),
    ]);
  }

  async recordFailure(delivery: ClaimedDelivery, outcome: AttemptOutcome, nextAttemptAt: Date | null): Promise<number> {
    const result = await sql(this.dataSource, RECORD_FAILURE, [
      delivery.id,
      outcome.at,
      outcome.responseStatus,
      errorText(outcome.error),
      nextAttemptAt,
    ]);
    return result.rows.length ? int(result.rows[0] as Row, 'consecutive_failures') : 0;
  }

  async setInFlightLimit(webhookId: string, limit: number | null): Promise<void> {
    await sql(this.dataSource, 'UPDATE webhooks SET in_flight_limit = $2 WHERE id = $1 AND in_flight_limit IS DISTINCT FROM $2', [
      webhookId,
      limit,
    ]);
  }

  async disableWebhook(webhookId: string, reason: string, at: Date): Promise<void> {
    await sql(
      this.dataSource,
      'UPDATE webhooks SET is_active = false, disabled_reason = $2, updated_at = ' +
        "GREATEST($3, updated_at + interval '1 millisecond') WHERE id = $1 AND is_active",
      [webhookId, reason, at],
    );
  }

  async listOfWebhook(webhookId: string, page: PageRequest): Promise<Page<Delivery>> {
    const total = await countOf(this.dataSource, 'SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = $1', [webhookId]);
    const params: unknown[] = [webhookId];
    let after = '';
    if (page.after) {
      // Ordered by (created_at, id), as the index (webhook_id, created_at DESC, id DESC) holds them.
      params.push(page.after[0], page.after[1]);
      after = ' AND (created_at, id) < ($2::timestamptz, $3)';
    }
    const result = await sql(
      this.dataSource,
      `SELECT id, event_id, event_type, status, attempts, last_attempt_at, response_status, last_error, next_attempt_at, created_at,
        finished_at,
              created_at::text AS position
         FROM webhook_deliveries WHERE webhook_id = $1${after} ORDER BY created_at DESC, id DESC LIMIT ${page.rows} OFFSET ${page.offset}`,
      params,
    );
    // A position keeps created_at as PostgreSQL wrote it (microseconds), not as a Date (milliseconds), which
    // would skip a delivery made in the same millisecond.
    const positions = new Map(result.rows.map((r) => [String(r['id']), String(r['position'])]));
    return pageOf(rowsOf(result, toDelivery), total, page, (d) => [positions.get(d.id) ?? '', d.id]);
  }

  async subscriptions(): Promise<Map<WebhookEventType, Set<string>>> {
    const result = await sql(
      this.dataSource,
      'SELECT DISTINCT e.type, w.owner_id FROM webhooks w, unnest(w.events) AS e(type) WHERE w.is_active',
    );
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
