import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Daily rollups of counted visits by dimension: one row per (UTC date, link, dimension, value), so storage
 * grows with distinct values, not with clicks (no cross product of dimensions). Owner and domain are kept
 * for the statistics' filters, as in link_daily_stats; like its rows, these outlive a deleted link and go
 * with the account. Fill factor 50, as link_daily_stats: the writer adds to the same rows every second.
 */
export class AnalyticsDimensionStats1764100015000 implements MigrationInterface {
  name = 'AnalyticsDimensionStats1764100015000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE link_daily_dimensions (
        date date NOT NULL,
        link_id char(24) NOT NULL,
        dimension varchar(16) NOT NULL,
        value varchar(253) NOT NULL,
        owner_id char(24) NOT NULL,
        domain_id char(24),
        visits bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (date, link_id, dimension, value)
      ) WITH (fillfactor = 50)`);
    await db.query(`CREATE INDEX link_daily_dimensions_owner_idx ON link_daily_dimensions (owner_id, dimension, date)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE link_daily_dimensions`);
  }
}
