import { MigrationInterface, QueryRunner } from 'typeorm';

/** How many rows an owner's link count is spread over (see LinksUsageStripes): a constant of the schema. */
export const LINK_USAGE_STRIPES = 16;

/**
 * An owner's link count spread over up to LINK_USAGE_STRIPES rows of `links_usage` (`stripe` 0..15), so
 * that creations on different connections do not queue on one row. Measured with pgbench (16 clients, one
 * owner, an insert and its counter update in one statement, synchronous commit): one counter row 1,034
 * transactions/s (each holds the row from its update through its commit's WAL flush), 16 rows 4,511, no
 * counter at all 10,829. The count is the sum of the owner's rows; tags keep one row (stripe 0).
 *
 * The quota stays exact by escrow: a row may hold at most its `allowance`, handed out for the `quota` it
 * was made for, and the allowances of an owner never add up to more than that quota. A creation
 * (`links_usage_take`) takes its connection's row (pg_backend_pid() % 16: the statement trigger, on the
 * same connection, adds to the same row) and goes ahead when the row has room for what it writes. Else it
 * rebalances: it takes stripe 0 (two rebalances queue there), then every row of the owner in stripe order,
 * sums them (a statement of its own, so it sees what committed while it waited), refuses with LQ001 when
 * the quota has no room (the sum in DETAIL), and otherwise shares what is left among the rows. Near the
 * quota every creation rebalances, which is the single row's queue again, where exactness needs it.
 *
 * A delete takes its connection's row first (see deleteCounted in quota.ts) and subtracts there; a row may
 * go below zero, the sum is what counts. Rows made by inserts that bypass the quota (seeds) have no allowance.
 */
export class LinksUsageStripes1764340000000 implements MigrationInterface {
  name = 'LinksUsageStripes1764340000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE links_usage ADD COLUMN stripe smallint NOT NULL DEFAULT 0, ADD COLUMN allowance bigint, ADD COLUMN quota bigint`,
    );
    await db.query(`ALTER TABLE links_usage DROP CONSTRAINT links_usage_pkey`);
    await db.query(`ALTER TABLE links_usage ADD PRIMARY KEY (owner_id, resource, stripe)`);
    // TG_ARGV[1]: how many rows the resource is spread over (absent: one).
    await db.query(`
      CREATE OR REPLACE FUNCTION links_usage_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        s smallint := CASE WHEN TG_NARGS > 1 THEN pg_backend_pid() % TG_ARGV[1]::int ELSE 0 END;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO links_usage AS u (owner_id, resource, stripe, used)
            SELECT owner_id, TG_ARGV[0], s, count(*) FROM inserted_rows GROUP BY owner_id
            ON CONFLICT (owner_id, resource, stripe) DO UPDATE SET used = u.used + EXCLUDED.used;
        ELSE
          INSERT INTO links_usage AS u (owner_id, resource, stripe, used)
            SELECT owner_id, TG_ARGV[0], s, -count(*) FROM deleted_rows GROUP BY owner_id
            ON CONFLICT (owner_id, resource, stripe) DO UPDATE SET used = u.used + EXCLUDED.used;
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`DROP TRIGGER links_usage_insert ON links`);
    await db.query(`DROP TRIGGER links_usage_delete ON links`);
    await db.query(`CREATE TRIGGER links_usage_insert AFTER INSERT ON links REFERENCING NEW TABLE AS inserted_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION links_usage_count('links', '${LINK_USAGE_STRIPES}')`);
    await db.query(`CREATE TRIGGER links_usage_delete AFTER DELETE ON links REFERENCING OLD TABLE AS deleted_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION links_usage_count('links', '${LINK_USAGE_STRIPES}')`);
    await db.query(`
      CREATE FUNCTION links_usage_take(p_owner char(24), p_resource varchar, p_stripes int, p_adding bigint, p_quota bigint) RETURNS bigint
        LANGUAGE plpgsql AS $$
      DECLARE
        s smallint := pg_backend_pid() % p_stripes;
        total bigint;
        rows_held int;
        share bigint;
        spare bigint;
      BEGIN
        IF p_adding <= 0 THEN
          RETURN NULL;
        END IF;
        -- This connection's row, when it has room under an allowance made for this quota. In a block of its
        -- own (a subtransaction): an UPDATE that waited for a rebalance re-reads the row and keeps it locked
        -- even when it no longer qualifies; rolling the block back lets go of it, so a creation holds no row
        -- when it goes on to rebalance (holding one while waiting for stripe 0 was a deadlock).
        BEGIN
          UPDATE links_usage u SET used = u.used
           WHERE u.owner_id = p_owner AND u.resource = p_resource AND u.stripe = s AND u.quota = p_quota
             AND u.used + p_adding <= u.allowance;
          IF FOUND THEN
            RETURN NULL;
          END IF;
          RAISE EXCEPTION USING ERRCODE = 'LQ002';
        EXCEPTION WHEN SQLSTATE 'LQ002' THEN
          NULL;
        END;
        -- Rebalance: stripe 0 first (rebalances queue there), this connection's row made, every row in order.
        INSERT INTO links_usage AS u (owner_id, resource, stripe, used) VALUES (p_owner, p_resource, 0, 0)
          ON CONFLICT (owner_id, resource, stripe) DO UPDATE SET used = u.used;
        INSERT INTO links_usage AS u (owner_id, resource, stripe, used) VALUES (p_owner, p_resource, s, 0)
          ON CONFLICT (owner_id, resource, stripe) DO UPDATE SET used = u.used;
        PERFORM 1 FROM links_usage u WHERE u.owner_id = p_owner AND u.resource = p_resource ORDER BY u.stripe FOR UPDATE;
        SELECT sum(u.used), count(*) INTO total, rows_held FROM links_usage u WHERE u.owner_id = p_owner AND u.resource = p_resource;
        IF total + p_adding > p_quota THEN
          RAISE EXCEPTION 'quota of % reached', p_quota USING ERRCODE = 'LQ001', DETAIL = total::text;
        END IF;
        spare := p_quota - total - p_adding;
        share := spare / rows_held;
        UPDATE links_usage u
           SET allowance = u.used + share + CASE WHEN u.stripe = s THEN p_adding + spare - share * rows_held ELSE 0 END,
               quota = p_quota
         WHERE u.owner_id = p_owner AND u.resource = p_resource;
        RETURN total;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP FUNCTION links_usage_take(char, varchar, int, bigint, bigint)');
    await db.query(`DROP TRIGGER links_usage_insert ON links`);
    await db.query(`DROP TRIGGER links_usage_delete ON links`);
    await db.query(
      'CREATE TRIGGER links_usage_insert AFTER INSERT ON links REFERENCING NEW TABLE ' +
        `AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION links_usage_count('links')`,
    );
    await db.query(
      'CREATE TRIGGER links_usage_delete AFTER DELETE ON links REFERENCING OLD TABLE ' +
        `AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION links_usage_count('links')`,
    );
    await db.query(`
      CREATE TEMP TABLE links_usage_sums AS SELECT owner_id, resource, sum(used) AS used FROM links_usage GROUP BY owner_id, resource`);
    await db.query(`DELETE FROM links_usage`);
    await db.query(`ALTER TABLE links_usage DROP CONSTRAINT links_usage_pkey`);
    await db.query(`ALTER TABLE links_usage DROP COLUMN stripe, DROP COLUMN allowance, DROP COLUMN quota`);
    await db.query(`ALTER TABLE links_usage ADD PRIMARY KEY (owner_id, resource)`);
    await db.query(`INSERT INTO links_usage (owner_id, resource, used) SELECT owner_id, resource, used FROM links_usage_sums`);
    await db.query(`DROP TABLE links_usage_sums`);
    await db.query(`
      CREATE OR REPLACE FUNCTION links_usage_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO links_usage AS u (owner_id, resource, used)
            SELECT owner_id, TG_ARGV[0], count(*) FROM inserted_rows GROUP BY owner_id
            ON CONFLICT (owner_id, resource) DO UPDATE SET used = u.used + EXCLUDED.used;
        ELSE
          UPDATE links_usage u SET used = u.used - d.n
            FROM (SELECT owner_id, count(*) AS n FROM deleted_rows GROUP BY owner_id) d
           WHERE u.owner_id = d.owner_id AND u.resource = TG_ARGV[0];
        END IF;
        RETURN NULL;
      END $$`);
  }
}
