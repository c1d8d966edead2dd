import { MigrationInterface, QueryRunner } from 'typeorm';

/** Links, tags and the tags on links. Owners and domains are ids of other contexts: no foreign keys to them. */
export class LinksAndTags1763800300000 implements MigrationInterface {
  name = 'LinksAndTags1763800300000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE links (
        id char(24) PRIMARY KEY,
        owner_id char(24) NOT NULL,
        domain_id char(24),
        slug varchar(64) NOT NULL,
        url varchar(2048) NOT NULL,
        title varchar(200) NOT NULL DEFAULT '',
        description varchar(1000) NOT NULL DEFAULT '',
        status boolean NOT NULL DEFAULT true,
        password_hash text,
        clicks bigint NOT NULL DEFAULT 0,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    // One namespace per custom domain, and one for the default short domain (no domain).
    await db.query(`CREATE UNIQUE INDEX links_domain_slug_key ON links ((COALESCE(domain_id, '')), slug)`);
    await db.query(`CREATE INDEX links_owner_idx ON links (owner_id, id DESC)`);
    await db.query(`CREATE INDEX links_owner_domain_idx ON links (owner_id, domain_id) WHERE domain_id IS NOT NULL`);
    await db.query(`
      CREATE TABLE tags (
        id char(24) PRIMARY KEY,
        owner_id char(24) NOT NULL,
        name varchar(64) NOT NULL,
        is_favorite boolean NOT NULL DEFAULT false,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX tags_owner_name_key ON tags (owner_id, lower(name))`);
    await db.query(`CREATE INDEX tags_owner_idx ON tags (owner_id, id DESC)`);
    await db.query(`
      CREATE TABLE link_tags (
        link_id char(24) NOT NULL REFERENCES links (id) ON DELETE CASCADE,
        tag_id char(24) NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
        PRIMARY KEY (link_id, tag_id)
      )`);
    await db.query(`CREATE INDEX link_tags_tag_idx ON link_tags (tag_id)`);
    // Substring search over title, slug and url: a trigram index where pg_trgm is available; without
    // it the same query still answers, scanning the owner's links.
    await db.query(`
      DO $$ BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
      EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'pg_trgm is not available: link search runs without a trigram index';
      END $$`);
    await db.query(`
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          EXECUTE 'CREATE INDEX links_search_trgm_idx ON links USING gin ((lower(title || '' '' || slug || '' '' || url)) gin_trgm_ops)';
        END IF;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE link_tags`);
    await db.query(`DROP TABLE tags`);
    await db.query(`DROP TABLE links`);
  }
}
