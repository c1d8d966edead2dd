import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many custom domains each owner holds, kept exact in the transaction of every insert and delete by
 * statement triggers (one per statement, over its transition table), as links and tags are in their
 * context: the quota check reads and locks one row instead of counting the owner's domains under a lock.
 * Filled here from the rows that exist. Owners never change.
 */
export class DomainsUsageCounter1764000320000 implements MigrationInterface {
  name = 'DomainsUsageCounter1764000320000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE domains_usage (
        owner_id char(24) NOT NULL,
        resource varchar(16) NOT NULL,
        used bigint NOT NULL,
        PRIMARY KEY (owner_id, resource)
      ) WITH (fillfactor = 50)`);
    await db.query(`
      CREATE FUNCTION domains_usage_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO domains_usage AS u (owner_id, resource, used)
            SELECT owner_id, 'domains', count(*) FROM inserted_rows GROUP BY owner_id
            ON CONFLICT (owner_id, resource) DO UPDATE SET used = u.used + EXCLUDED.used;
        ELSE
          UPDATE domains_usage u SET used = u.used - d.n
            FROM (SELECT owner_id, count(*) AS n FROM deleted_rows GROUP BY owner_id) d
           WHERE u.owner_id = d.owner_id AND u.resource = 'domains';
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`CREATE TRIGGER custom_domains_usage_insert AFTER INSERT ON custom_domains REFERENCING NEW TABLE AS inserted_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION domains_usage_count()`);
    await db.query(`CREATE TRIGGER custom_domains_usage_delete AFTER DELETE ON custom_domains REFERENCING OLD TABLE AS deleted_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION domains_usage_count()`);
    await db.query(
      `INSERT INTO domains_usage (owner_id, resource, used) SELECT owner_id, 'domains', count(*) FROM custom_domains GROUP BY owner_id`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER custom_domains_usage_delete ON custom_domains`);
    await db.query(`DROP TRIGGER custom_domains_usage_insert ON custom_domains`);
    await db.query(`DROP FUNCTION domains_usage_count()`);
    await db.query(`DROP TABLE domains_usage`);
  }
}
