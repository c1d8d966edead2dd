import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The links with an expiry, in expiry order: the webhooks' periodic scan for `link.expired` reads the
 * few that expired since its last look (a partial index: links without expiresAt, most of them, are not in it).
 */
export class LinksExpiryIndex1764350000000 implements MigrationInterface {
  name = 'LinksExpiryIndex1764350000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX links_expires_at_idx ON links (expires_at) WHERE expires_at IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX links_expires_at_idx`);
  }
}
