import { DataSource } from 'typeorm';
import { checkRoomFor } from '@lnk/shared/kernel';
import { sql } from './sql';
import { inTransaction } from './transaction';

/**
 * One owner's row in a context's usage table: `(owner_id, resource, used)`, primary key `(owner_id,
 * resource)` (or `(owner_id, resource, stripe)` when the count is spread over rows: see `stripes`), where
 * `used` is how many rows of `resource` the owner holds (their sum, when spread). Statement triggers on the
 * counted table keep it in the transaction of every insert and delete (see the contexts' usage
 * migrations), so every path that writes rows keeps it exact, bulk deletes and seeded rows included.
 */
export interface Usage {
  /** The context's usage table, a constant of its adapter (never user input). */
  table: string;
  resource: string;
  ownerId: string;
  /**
   * Set when the table spreads an owner's count over rows (a `stripe` column in its key): how many rows
   * this resource uses (1: one row, stripe 0). A connection's row is `pg_backend_pid() % stripes`, as in
   * the table's trigger; the count is the sum of the owner's rows. Unset: one row, no stripe column.
   */
  stripes?: number;
}

export interface Quota extends Usage {
  limit: number;
}

/**
 * Inserts within the owner's quota in one transaction (the caller's unit of work when there is one):
 * takes the owner's usage row (a writer holding it keeps the others waiting until it ends, and they then
 * read what it left), throws `QuotaExceededError` when no slot is left, else runs `insert`, whose rows the
 * trigger adds to the same row. A failed insert rolls its count back with it.
 */
export function insertWithinQuota(dataSource: DataSource, quota: Quota, insert: () => Promise<void>): Promise<void> {
  // One row holds the count only when there is one: a resource spread over rows checks its quota in its own statement.
  if ((quota.stripes ?? 1) > 1) throw new Error(`insertWithinQuota: ${quota.resource} is counted over ${quota.stripes} rows`);
  return inTransaction(dataSource, async () => {
    checkRoomFor(quota.resource, await lockUsage(dataSource, quota), quota.limit);
    await insert();
  });
}

/**
 * Deletes after taking the owner's usage row, as an insert does: the trigger takes it at the end of the
 * delete otherwise, and a delete of a slug (or name) racing a creation of the same one would wait for
 * the creation while the creation waits for it (a deadlock).
 */
export function deleteCounted<T>(dataSource: DataSource, usage: Usage, remove: () => Promise<T>): Promise<T> {
  return inTransaction(dataSource, async () => {
    await lockUsage(dataSource, usage);
    return remove();
  });
}

/** What the owner holds now, committed (0 without a row yet). */
export async function usedOf(dataSource: DataSource, usage: Usage): Promise<number> {
  const { rows } = await sql<{ used: string }>(
    dataSource,
    `SELECT COALESCE(sum(used), 0) AS used FROM ${usage.table} WHERE owner_id = $1 AND resource = $2`,
    [usage.ownerId, usage.resource],
  );
  return Number(rows[0].used);
}

/**
 * Locks the owner's usage row until the transaction ends, creating it when missing, and answers `used`.
 * An upsert rather than SELECT ... FOR UPDATE: when two first writers of an owner race, the second one's
 * snapshot cannot see the row the first one created, and ON CONFLICT DO UPDATE waits for it and reads its
 * latest version whatever the snapshot. A resource spread over rows: this connection's row, the one its
 * trigger will write.
 */
async function lockUsage(dataSource: DataSource, usage: Usage): Promise<number> {
  const statement =
    usage.stripes === undefined
      ? `INSERT INTO ${usage.table} AS u (owner_id, resource, used) VALUES ($1, $2, 0)
         ON CONFLICT (owner_id, resource) DO UPDATE SET used = u.used RETURNING used`
      : `INSERT INTO ${usage.table} AS u (owner_id, resource, stripe, used)
        VALUES ($1, $2, pg_backend_pid() % ${Math.max(1, Math.floor(usage.stripes))}, 0)
         ON CONFLICT (owner_id, resource, stripe) DO UPDATE SET used = u.used RETURNING used`;
  const { rows } = await sql<{ used: string }>(dataSource, statement, [usage.ownerId, usage.resource]);
  return Number(rows[0].used);
}
