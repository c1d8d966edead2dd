import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room on each page of the daily rollups for the next version of its rows: the click writer adds to the
 * same rows every second, and with free space on the page PostgreSQL rewrites a row in place (a HOT
 * update) instead of adding an entry to each of the table's three indexes. Pages written from now on
 * keep the room; existing ones get it as they are rewritten.
 */
export class AnalyticsStatsFillFactor1764000100000 implements MigrationInterface {
  name = 'AnalyticsStatsFillFactor1764000100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE link_daily_stats SET (fillfactor = 50)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE link_daily_stats RESET (fillfactor)`);
  }
}
