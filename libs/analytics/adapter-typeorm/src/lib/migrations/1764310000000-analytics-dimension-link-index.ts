import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One link's breakdown (GET /user/stats/{dimension}?linkId=) by link first. The owner index
 * (owner_id, dimension, date) made PostgreSQL read every row of the account's dimension over the
 * period and drop those of other links: 400-575 ms for a year of 1,000 links (bench:stats), where this
 * index reads the link's rows only. `visits` is not in it, so the click writer's upserts, which only add
 * to visits, stay HOT updates that touch no index (see migration 1764100015000).
 */
export class AnalyticsDimensionLinkIndex1764310000000 implements MigrationInterface {
  name = 'AnalyticsDimensionLinkIndex1764310000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX link_daily_dimensions_link_idx ON link_daily_dimensions (link_id, dimension, date)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX link_daily_dimensions_link_idx`);
  }
}
