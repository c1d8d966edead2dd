import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tokens, codes, two-factor and e-mail verification. Everything of a user goes with the user. */
export class IdentityTokens1763800100000 implements MigrationInterface {
  name = 'IdentityTokens1763800100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ADD COLUMN two_factor_secret text`);
    await db.query(`
      CREATE TABLE oauth_tokens (
        id char(24) PRIMARY KEY,
        family_id char(24) NOT NULL,
        user_id char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        client_id char(24) NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
        scopes text[] NOT NULL,
        access_hash char(64) NOT NULL,
        refresh_hash char(64) NOT NULL,
        access_expires_at timestamptz(3) NOT NULL,
        refresh_expires_at timestamptz(3) NOT NULL,
        authorization_code_id char(24),
        rotated_at timestamptz(3),
        revoked_at timestamptz(3),
        created_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX oauth_tokens_access_hash_key ON oauth_tokens (access_hash)`);
    await db.query(`CREATE UNIQUE INDEX oauth_tokens_refresh_hash_key ON oauth_tokens (refresh_hash)`);
    await db.query(`CREATE INDEX oauth_tokens_family_idx ON oauth_tokens (family_id)`);
    await db.query(`CREATE INDEX oauth_tokens_user_idx ON oauth_tokens (user_id)`);
    await db.query(`CREATE INDEX oauth_tokens_client_idx ON oauth_tokens (client_id)`);
    await db.query(`CREATE INDEX oauth_tokens_code_idx ON oauth_tokens (authorization_code_id) WHERE authorization_code_id IS NOT NULL`);
    await db.query(`
      CREATE TABLE personal_access_tokens (
        id char(24) PRIMARY KEY,
        user_id char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        description varchar(500) NOT NULL DEFAULT '',
        scopes text[] NOT NULL,
        token_hash char(64) NOT NULL,
        last_used_at timestamptz(3),
        expires_at timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX personal_access_tokens_hash_key ON personal_access_tokens (token_hash)`);
    await db.query(`CREATE INDEX personal_access_tokens_user_idx ON personal_access_tokens (user_id, id DESC)`);
    await db.query(`
      CREATE TABLE authorization_codes (
        id char(24) PRIMARY KEY,
        code_hash char(64) NOT NULL,
        client_id char(24) NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
        user_id char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        redirect_uri text NOT NULL,
        scopes text[] NOT NULL,
        code_challenge varchar(128),
        code_challenge_method varchar(10),
        expires_at timestamptz(3) NOT NULL,
        consumed_at timestamptz(3),
        created_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX authorization_codes_hash_key ON authorization_codes (code_hash)`);
    await db.query(`
      CREATE TABLE backup_codes (
        user_id char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        code_hash char(64) NOT NULL,
        used_at timestamptz(3),
        PRIMARY KEY (user_id, code_hash)
      )`);
    await db.query(`
      CREATE TABLE email_verifications (
        id char(24) PRIMARY KEY,
        user_id char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email varchar(254) NOT NULL,
        token_hash char(64) NOT NULL,
        expires_at timestamptz(3) NOT NULL,
        used_at timestamptz(3),
        created_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX email_verifications_hash_key ON email_verifications (token_hash)`);
    await db.query(`CREATE INDEX email_verifications_user_idx ON email_verifications (user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['email_verifications', 'backup_codes', 'authorization_codes', 'personal_access_tokens', 'oauth_tokens']) {
      await db.query(`DROP TABLE ${table}`);
    }
    await db.query(`ALTER TABLE users DROP COLUMN two_factor_secret`);
  }
}
