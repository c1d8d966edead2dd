import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The quota check of a link creation, inside the creating statement. A creation is one statement (see
 * TypeormLinkRepository.insertCounted): it inserts the link and its tags, then takes the owner's usage row
 * and passes what it held to `links_usage_within`, which raises SQLSTATE LQ001 (the count in DETAIL) when
 * no slot was left, so the statement, and the link with it, is rolled back. The usage row is then held only
 * from the end of the statement to its commit, on the server: before, a creation took it first and held it
 * through the insert and three client round trips (BEGIN ... COMMIT), and creations of one account queued
 * on it at ~160-270 links/s.
 */
export class LinksQuotaCheck1764200000000 implements MigrationInterface {
  name = 'LinksQuotaCheck1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION links_usage_within(used bigint, quota bigint) RETURNS bigint LANGUAGE plpgsql AS $$
      BEGIN
        IF used >= quota THEN
          RAISE EXCEPTION 'quota of % reached', quota USING ERRCODE = 'LQ001', DETAIL = used::text;
        END IF;
        RETURN used;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP FUNCTION links_usage_within(bigint, bigint)');
  }
}
