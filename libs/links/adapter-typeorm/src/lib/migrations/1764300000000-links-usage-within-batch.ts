import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The quota check of a creation of several links in one statement (bulk create, import): the same
 * statement as one link's (TypeormLinkRepository.insertCounted, a batch of one), which passes how many
 * links it wrote. `adding` links fit when `used + adding <= quota`; none added never fails (a batch whose
 * slugs were all taken, or an owner over a lowered quota deleting nothing). SQLSTATE LQ001 and the count
 * held in DETAIL, as `links_usage_within(used, quota)` (kept: an instance of the previous release still
 * calls it during a rolling deploy).
 */
export class LinksUsageWithinBatch1764300000000 implements MigrationInterface {
  name = 'LinksUsageWithinBatch1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION links_usage_within(used bigint, adding bigint, quota bigint) RETURNS bigint LANGUAGE plpgsql AS $$
      BEGIN
        IF adding > 0 AND used + adding > quota THEN
          RAISE EXCEPTION 'quota of % reached', quota USING ERRCODE = 'LQ001', DETAIL = used::text;
        END IF;
        RETURN used;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP FUNCTION links_usage_within(bigint, bigint, bigint)');
  }
}
