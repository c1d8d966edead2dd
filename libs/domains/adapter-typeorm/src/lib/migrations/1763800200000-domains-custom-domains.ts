import { MigrationInterface, QueryRunner } from 'typeorm';

/** Custom domains. The owner is an id of the identity context: no foreign key across contexts. */
export class DomainsCustomDomains1763800200000 implements MigrationInterface {
  name = 'DomainsCustomDomains1763800200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE custom_domains (
        id char(24) PRIMARY KEY,
        owner_id char(24) NOT NULL,
        name varchar(253) NOT NULL,
        is_verified boolean NOT NULL DEFAULT false,
        verified_at timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX custom_domains_owner_name_key ON custom_domains (owner_id, name)`);
    // A name serves one account's links: only one account can hold it verified.
    await db.query(`CREATE UNIQUE INDEX custom_domains_verified_name_key ON custom_domains (name) WHERE is_verified`);
    await db.query(`CREATE INDEX custom_domains_owner_idx ON custom_domains (owner_id, id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE custom_domains`);
  }
}
