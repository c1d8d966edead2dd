import { MigrationInterface, QueryRunner } from 'typeorm';

/** Daily rollups of clicks, one row per (UTC date, link, UTM values); names kept as they were. */
export class AnalyticsDailyStats1763800400000 implements MigrationInterface {
  name = 'AnalyticsDailyStats1763800400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE link_daily_stats (
        id char(24) NOT NULL,
        date date NOT NULL,
        link_id char(24) NOT NULL,
        owner_id char(24) NOT NULL,
        domain_id char(24),
        link_name varchar(200) NOT NULL,
        domain_name varchar(253) NOT NULL,
        utm_source varchar(200) NOT NULL,
        utm_medium varchar(200) NOT NULL,
        utm_campaign varchar(200) NOT NULL,
        visits bigint NOT NULL DEFAULT 0,
        password_passed bigint NOT NULL DEFAULT 0,
        password_failed bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (date, link_id, utm_source, utm_medium, utm_campaign)
      )`);
    await db.query(`CREATE UNIQUE INDEX link_daily_stats_id_key ON link_daily_stats (id)`);
    await db.query(`CREATE INDEX link_daily_stats_owner_date_idx ON link_daily_stats (owner_id, date)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE link_daily_stats`);
  }
}
