import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A link's favourite mark (issue 31), and the indexes of the list's new keyset reads: favourites of an
 * owner newest first (a partial index: most links are not favourites), and an owner's links by lowercased
 * title then id in code point order ("C"), the order the title sort and its cursors compare in whatever
 * the database's locale; and a tag's links in id order, the tag filter's walk (replacing the index on the
 * tag alone, whose entries are in no link order). Oldest first walks links_owner_idx backwards.
 */
export class LinkFavoritesAndSorts1764600000000 implements MigrationInterface {
  name = 'LinkFavoritesAndSorts1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE links ADD COLUMN is_favorite boolean NOT NULL DEFAULT false`);
    await db.query(`CREATE INDEX links_owner_favorite_idx ON links (owner_id, id DESC) WHERE is_favorite`);
    await db.query(`CREATE INDEX links_owner_title_idx ON links (owner_id, (lower(title) COLLATE "C"), id)`);
    await db.query(`CREATE INDEX link_tags_tag_link_idx ON link_tags (tag_id, link_id)`);
    await db.query(`DROP INDEX link_tags_tag_idx`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX link_tags_tag_idx ON link_tags (tag_id)`);
    await db.query(`DROP INDEX link_tags_tag_link_idx`);
    await db.query(`DROP INDEX links_owner_title_idx`);
    await db.query(`DROP INDEX links_owner_favorite_idx`);
    await db.query(`ALTER TABLE links DROP COLUMN is_favorite`);
  }
}
