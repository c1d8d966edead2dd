import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Idempotency-Key of each account's requests (idempotency-keys.ts): the key and a digest of its
 * request, never the request itself; the first answer once there is one (none for an answer holding a
 * secret, or one too large). A key is the account's for 24 hours: expired rows are taken over by a new
 * request and swept in small batches (created_at's index).
 */
export class IdempotencyKeys1764610000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764610000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE idempotency_keys (
        owner_id char(24) NOT NULL,
        key varchar(255) NOT NULL,
        fingerprint char(64) NOT NULL,
        claim char(32) NOT NULL,
        state varchar(8) NOT NULL CHECK (state IN ('running', 'done')),
        claimed_until timestamptz NOT NULL,
        status smallint,
        answer text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (owner_id, key)
      )`);
    await db.query('CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE idempotency_keys');
  }
}
