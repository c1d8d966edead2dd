import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's OAuth client (apps/web at /app): first-party, public (no secret: PKCE instead), with a
 * fixed id, so an operator has nothing to set up. Its redirect URI and scopes are left empty here: the API
 * supplies them from its configuration (PUBLIC_BASE_URL, its list of scopes) each time it reads the row,
 * so a changed public address never leaves a stale URI behind.
 */
export class DashboardClient1764500000000 implements MigrationInterface {
  name = 'DashboardClient1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `INSERT INTO oauth_clients (id, client_id, secret_hash, owner_id, requested_by, name, description, scopes, redirect_uris,
        is_first_party, is_active, created_at, updated_at)
       VALUES ('00000000000000000da5b0a4', 'lnk-dashboard', NULL, NULL, NULL, 'lnk dashboard',
         'The service''s own dashboard, served at /app', '{}', '{}', true, true, now(), now())`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM oauth_clients WHERE client_id = 'lnk-dashboard'`);
  }
}
