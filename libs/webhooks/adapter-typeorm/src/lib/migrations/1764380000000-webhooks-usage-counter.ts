import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many webhooks each owner holds, kept exact in the transaction of every insert and delete by
 * statement triggers (one per statement, over its transition table), as links, tags and custom domains
 * are in their contexts: the limit check reads and locks one row (insertWithinQuota) instead of counting
 * the owner's webhooks under an advisory lock. Filled here from the rows that exist. Owners never change.
 */
export class WebhooksUsageCounter1764380000000 implements MigrationInterface {
  name = 'WebhooksUsageCounter1764380000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhooks_usage (
        owner_id char(24) NOT NULL,
        resource varchar(16) NOT NULL,
        used bigint NOT NULL,
        PRIMARY KEY (owner_id, resource)
      ) WITH (fillfactor = 50)`);
    await db.query(`
      CREATE FUNCTION webhooks_usage_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO webhooks_usage AS u (owner_id, resource, used)
            SELECT owner_id, 'webhooks', count(*) FROM inserted_rows GROUP BY owner_id
            ON CONFLICT (owner_id, resource) DO UPDATE SET used = u.used + EXCLUDED.used;
        ELSE
          UPDATE webhooks_usage u SET used = u.used - d.n
            FROM (SELECT owner_id, count(*) AS n FROM deleted_rows GROUP BY owner_id) d
           WHERE u.owner_id = d.owner_id AND u.resource = 'webhooks';
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`CREATE TRIGGER webhooks_usage_insert AFTER INSERT ON webhooks REFERENCING NEW TABLE AS inserted_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION webhooks_usage_count()`);
    await db.query(`CREATE TRIGGER webhooks_usage_delete AFTER DELETE ON webhooks REFERENCING OLD TABLE AS deleted_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION webhooks_usage_count()`);
    await db.query(
      `INSERT INTO webhooks_usage (owner_id, resource, used) SELECT owner_id, 'webhooks', count(*) FROM webhooks GROUP BY owner_id`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER webhooks_usage_delete ON webhooks`);
    await db.query(`DROP TRIGGER webhooks_usage_insert ON webhooks`);
    await db.query(`DROP FUNCTION webhooks_usage_count()`);
    await db.query(`DROP TABLE webhooks_usage`);
  }
}
