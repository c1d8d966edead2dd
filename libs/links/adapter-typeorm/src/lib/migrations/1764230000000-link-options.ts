import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A link's options (issue 18), each null when not set: a plain link's row is as before. The visit limit
 * and its counter live in a narrow table of their own, one row per link that has a limit: every counted
 * visit of such a link rewrites that small row in place (fill factor 50, a HOT update), never the wide
 * `links` row with its trigram index (see link_clicks' migration).
 */
export class LinkOptions1764230000000 implements MigrationInterface {
  name = 'LinkOptions1764230000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE links
        ADD COLUMN redirect_type smallint CHECK (redirect_type IN (301, 307, 308)),
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN expired_url text,
        ADD COLUMN utm jsonb,
        ADD COLUMN targets jsonb`);
    await db.query(`
      CREATE TABLE link_visit_limits (
        link_id char(24) PRIMARY KEY REFERENCES links (id) ON DELETE CASCADE,
        max_visits integer NOT NULL CHECK (max_visits > 0),
        visits_used integer NOT NULL DEFAULT 0
      ) WITH (fillfactor = 50)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE link_visit_limits`);
    await db.query(
      `ALTER TABLE links DROP COLUMN redirect_type, DROP COLUMN expires_at, DROP COLUMN expired_url, DROP COLUMN utm, DROP COLUMN targets`,
    );
  }
}
