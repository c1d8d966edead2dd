import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { firstOf, int, nullable, oneOf, sql, text } from '@lnk/shared/database';

/** How long a key is its account's (Stripe's 24 hours): past it, the same key starts a new request. */
export const KEY_LIFETIME = '24 hours';
/**
 * How long a first request may hold its key while it runs. Past it, a process that died mid-request no
 * longer blocks the key; a request runs far shorter (every statement is bounded, see DATABASE_*_TIMEOUT).
 */
export const CLAIM_LIFETIME = '5 minutes';

/** A first answer, as it is kept: its status and envelope, or none (it held a secret, or was too large). */
export interface KeptAnswer {
  status: number;
  /** The envelope's JSON text; null when it was not kept. */
  answer: string | null;
}

/** What a request holding a key finds. */
export type Claim =
  /** The key is this request's: it runs, then answers through `keep` or `release`. */
  | { kind: 'claimed'; claim: string }
  /** Another request's key with another body (or route). */
  | { kind: 'reused' }
  /** The first request of this key still runs. */
  | { kind: 'in-use' }
  /** The first request has answered. */
  | ({ kind: 'done' } & KeptAnswer);

const decodeKey = (r: Record<string, unknown>) => ({
  fingerprint: text(r, 'fingerprint'),
  state: oneOf(['running', 'done'] as const)(r, 'state'),
  status: nullable(int)(r, 'status'),
  answer: nullable(text)(r, 'answer'),
});

// One statement claims a key: a new one, or one past its lifetime, or the abandoned claim of the same
// request. Two requests racing for one key meet at the primary key: one inserts, the other's conflict
// finds the row (committed) and takes it only when the WHERE says so, so one of them runs, on any instance.
const CLAIM = `
  INSERT INTO idempotency_keys AS k (owner_id, key, fingerprint, claim, state, claimed_until, created_at)
  VALUES ($1, $2, $3, $4, 'running', now() + interval '${CLAIM_LIFETIME}', now())
  ON CONFLICT (owner_id, key) DO UPDATE
     SET fingerprint = EXCLUDED.fingerprint, claim = EXCLUDED.claim, state = 'running', claimed_until = EXCLUDED.claimed_until,
         status = NULL, answer = NULL, created_at = EXCLUDED.created_at
   WHERE k.created_at < now() - interval '${KEY_LIFETIME}'
      OR (k.state = 'running' AND k.claimed_until < now() AND k.fingerprint = EXCLUDED.fingerprint)
  RETURNING k.claim`;

/**
 * Each account's Idempotency-Keys in PostgreSQL, shared by every instance: a key is claimed by one
 * request (a unique insert), which then keeps its answer or, when it failed, releases the key for a retry.
 * The request's body is not stored, only a digest of it (`fingerprint`), and the key.
 */
export class IdempotencyKeys {
  constructor(private readonly dataSource: DataSource) {}

  async claim(ownerId: string, key: string, fingerprint: string): Promise<Claim> {
    // A key released between the insert and the read is claimed again: a few rounds at most.
    for (let round = 0; round < 3; round++) {
      const claim = randomBytes(16).toString('hex');
      const { rows } = await sql(this.dataSource, CLAIM, [ownerId, key, fingerprint, claim]);
      if (rows.length) return { kind: 'claimed', claim };
      const found = firstOf(
        await sql(this.dataSource, 'SELECT fingerprint, state, status, answer FROM idempotency_keys WHERE owner_id = $1 AND key = $2', [
          ownerId,
          key,
        ]),
        decodeKey,
      );
      if (!found) continue;
      if (found.fingerprint !== fingerprint) return { kind: 'reused' };
      if (found.state === 'running') return { kind: 'in-use' };
      return { kind: 'done', status: found.status ?? 500, answer: found.answer };
    }
    return { kind: 'in-use' };
  }

  /** The first answer of a claimed key, kept for its replays (its text null: not kept). */
  async keep(ownerId: string, key: string, claim: string, kept: KeptAnswer): Promise<void> {
    await sql(
      this.dataSource,
      "UPDATE idempotency_keys SET state = 'done', status = $4, answer = $5 WHERE owner_id = $1 AND key = $2 AND claim = $3",
      [ownerId, key, claim, kept.status, kept.answer],
    );
  }

  /** A claimed key whose request failed (a fault, a 5xx): free for the retry. */
  async release(ownerId: string, key: string, claim: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM idempotency_keys WHERE owner_id = $1 AND key = $2 AND claim = $3', [ownerId, key, claim]);
  }

  /** Deletes up to `batch` keys past their lifetime, oldest first; answers how many. */
  async sweep(batch: number): Promise<number> {
    const { affected } = await sql(
      this.dataSource,
      `DELETE FROM idempotency_keys WHERE (owner_id, key) IN (
         SELECT owner_id, key FROM idempotency_keys WHERE created_at < now() - interval '${KEY_LIFETIME}' ORDER BY created_at
           LIMIT ${Math.floor(batch)})`,
    );
    return affected;
  }
}
