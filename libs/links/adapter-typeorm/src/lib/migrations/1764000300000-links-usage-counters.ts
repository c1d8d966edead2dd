import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many links and tags each owner holds, kept exact in the transaction of every insert and delete by
 * statement triggers (one per statement, over its transition table: erasing an account's 100,000 links
 * is one subtraction, not 100,000). The quota check and the unfiltered list's total read one row instead
 * of counting the owner's rows, which took 50 ms at 100,000 links and, under the quota's lock,
 * serialised creations on that count. Filled here from the rows that exist. Owners never change.
 */
export class LinksUsageCounters1764000300000 implements MigrationInterface {
  name = 'LinksUsageCounters1764000300000';

  async up(db: QueryRunner): Promise<void> {
    // Fill factor 50: `used` is rewritten on every creation, in place (a HOT update) when the page has room.
    await db.query(`
      CREATE TABLE links_usage (
        owner_id char(24) NOT NULL,
        resource varchar(16) NOT NULL,
        used bigint NOT NULL,
        PRIMARY KEY (owner_id, resource)
      ) WITH (fillfactor = 50)`);
    await db.query(`
      CREATE FUNCTION links_usage_count() RETURNS trigger LANGUAGE plpgsql AS $$
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
    for (const table of ['links', 'tags']) {
      await db.query(`CREATE TRIGGER ${table}_usage_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS inserted_rows
                      FOR EACH STATEMENT EXECUTE FUNCTION links_usage_count('${table}')`);
      await db.query(`CREATE TRIGGER ${table}_usage_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS deleted_rows
                      FOR EACH STATEMENT EXECUTE FUNCTION links_usage_count('${table}')`);
      await db.query(
        `INSERT INTO links_usage (owner_id, resource, used) SELECT owner_id, '${table}', count(*) FROM ${table} GROUP BY owner_id`,
      );
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['links', 'tags']) {
      await db.query(`DROP TRIGGER ${table}_usage_delete ON ${table}`);
      await db.query(`DROP TRIGGER ${table}_usage_insert ON ${table}`);
    }
    await db.query(`DROP FUNCTION links_usage_count()`);
    await db.query(`DROP TABLE links_usage`);
  }
}
