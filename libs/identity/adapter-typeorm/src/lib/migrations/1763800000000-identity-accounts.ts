import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdentityAccounts1763800000000 implements MigrationInterface {
  name = 'IdentityAccounts1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE users (
        id char(24) PRIMARY KEY,
        email varchar(254) NOT NULL,
        name varchar(100) NOT NULL DEFAULT '',
        password_hash text,
        is_verified boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX users_email_key ON users (email)`);
    await db.query(`
      CREATE TABLE oauth_clients (
        id char(24) PRIMARY KEY,
        client_id varchar(64) NOT NULL,
        secret_hash char(64) NOT NULL,
        owner_id char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        description varchar(500) NOT NULL DEFAULT '',
        scopes text[] NOT NULL,
        redirect_uris text[] NOT NULL,
        is_first_party boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX oauth_clients_client_id_key ON oauth_clients (client_id)`);
    await db.query(`CREATE INDEX oauth_clients_owner_idx ON oauth_clients (owner_id, id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE oauth_clients`);
    await db.query(`DROP TABLE users`);
  }
}
