import { DataSource } from 'typeorm';
import { AuthorizationCode, AuthorizationCodeRepository, OAuthToken, OAuthTokenRepository, PatRoom, PersonalAccessToken, PersonalAccessTokenRepository } from '@lnk/identity/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import { afterId, countOf, firstOf, inTransaction, lockKey, rowsOf, sql } from '@lnk/shared/database';
import { toAuthorizationCode, toOAuthToken, toPersonalAccessToken } from './identity.decoders';

// Only tokens of active accounts authenticate: the join answers that in the same indexed lookup.
const ACTIVE_OAUTH = `SELECT t.* FROM oauth_tokens t JOIN users u ON u.id = t.user_id AND u.is_active`;

export class TypeormOAuthTokenRepository extends OAuthTokenRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insert(token: OAuthToken): Promise<void> {
    const p = token.props;
    await sql(
      this.dataSource,
      `INSERT INTO oauth_tokens (id, family_id, user_id, client_id, scopes, access_hash, refresh_hash, access_expires_at, refresh_expires_at, authorization_code_id,
                                 auth_time, rotated_at, revoked_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [p.id, p.familyId, p.userId, p.clientId, p.scopes, p.accessHash, p.refreshHash, p.accessExpiresAt, p.refreshExpiresAt, p.authorizationCodeId, p.authTime, p.rotatedAt, p.revokedAt, p.createdAt],
    );
  }

  async findByAccessHash(hash: string): Promise<OAuthToken | null> {
    return firstOf(await sql(this.dataSource, `${ACTIVE_OAUTH} WHERE t.access_hash = $1`, [hash]), toOAuthToken);
  }

  async findByRefreshHash(hash: string): Promise<OAuthToken | null> {
    return firstOf(await sql(this.dataSource, `${ACTIVE_OAUTH} WHERE t.refresh_hash = $1`, [hash]), toOAuthToken);
  }

  async markRotated(id: string, at: Date): Promise<boolean> {
    const { affected } = await sql(this.dataSource, 'UPDATE oauth_tokens SET rotated_at = $2 WHERE id = $1 AND rotated_at IS NULL AND revoked_at IS NULL', [id, at]);
    return affected === 1;
  }

  async revoke(id: string, at: Date): Promise<void> {
    await sql(this.dataSource, 'UPDATE oauth_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, at]);
  }

  async revokeFamily(familyId: string, at: Date): Promise<void> {
    await sql(this.dataSource, 'UPDATE oauth_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [familyId, at]);
  }

  async revokeIssuedByCode(authorizationCodeId: string, at: Date): Promise<void> {
    // Tokens refreshed from those the code issued share their family: all of them go.
    await sql(
      this.dataSource,
      `UPDATE oauth_tokens SET revoked_at = $2 WHERE revoked_at IS NULL
         AND family_id IN (SELECT family_id FROM oauth_tokens WHERE authorization_code_id = $1)`,
      [authorizationCodeId, at],
    );
  }

  async revokeAllOfUser(userId: string, at: Date, exceptTokenId?: string): Promise<void> {
    await sql(this.dataSource, 'UPDATE oauth_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND id <> $3', [userId, at, exceptTokenId ?? '']);
  }

  async revokeAllOfClient(clientId: string, at: Date): Promise<void> {
    await sql(this.dataSource, 'UPDATE oauth_tokens SET revoked_at = $2 WHERE client_id = $1 AND revoked_at IS NULL', [clientId, at]);
  }
}

export class TypeormPersonalAccessTokenRepository extends PersonalAccessTokenRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  /**
   * Under a lock of the user's PATs (an advisory lock until the transaction ends: creations for one user
   * run one after another, each counting what the one before left), so that concurrent creations cannot
   * all see room for themselves.
   */
  insertWithinLimit(token: PersonalAccessToken, room: PatRoom, now: Date): Promise<{ stored: boolean; active: number }> {
    const p = token.props;
    return inTransaction(this.dataSource, async () => {
      await lockKey(this.dataSource, `personal_access_tokens:${p.userId}`);
      await sql(
        this.dataSource,
        `DELETE FROM personal_access_tokens WHERE id IN (
           SELECT id FROM personal_access_tokens WHERE user_id = $1 AND expires_at <= $2 ORDER BY expires_at DESC, id DESC OFFSET $3)`,
        [p.userId, now, room.keptExpired],
      );
      const active = await countOf(this.dataSource, 'SELECT count(*) AS n FROM personal_access_tokens WHERE user_id = $1 AND (expires_at IS NULL OR expires_at > $2)', [p.userId, now]);
      if (active >= room.maxActive) return { stored: false, active };
      await sql(
        this.dataSource,
        `INSERT INTO personal_access_tokens (id, user_id, name, description, scopes, token_hash, last_used_at, expires_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [p.id, p.userId, p.name, p.description, p.scopes, p.tokenHash, p.lastUsedAt, p.expiresAt, p.createdAt, p.updatedAt],
      );
      return { stored: true, active };
    });
  }

  async findByHash(hash: string): Promise<PersonalAccessToken | null> {
    const result = await sql(this.dataSource, 'SELECT p.* FROM personal_access_tokens p JOIN users u ON u.id = p.user_id AND u.is_active WHERE p.token_hash = $1', [hash]);
    return firstOf(result, toPersonalAccessToken);
  }

  async findOfUser(userId: string, id: string): Promise<PersonalAccessToken | null> {
    return firstOf(await sql(this.dataSource, 'SELECT * FROM personal_access_tokens WHERE id = $1 AND user_id = $2', [id, userId]), toPersonalAccessToken);
  }

  async listOfUser(userId: string, page: PageRequest): Promise<Page<PersonalAccessToken>> {
    const pageParams: unknown[] = [userId];
    const [items, total] = await Promise.all([
      sql(this.dataSource, `SELECT * FROM personal_access_tokens WHERE user_id = $1${afterId(page, pageParams)} ORDER BY id DESC LIMIT ${page.rows} OFFSET ${page.offset}`, pageParams),
      countOf(this.dataSource, 'SELECT count(*) AS n FROM personal_access_tokens WHERE user_id = $1', [userId]),
    ]);
    return pageOf(rowsOf(items, toPersonalAccessToken), total, page, (t) => [t.props.id]);
  }

  async deleteOfUser(userId: string, id: string): Promise<boolean> {
    return (await sql(this.dataSource, 'DELETE FROM personal_access_tokens WHERE id = $1 AND user_id = $2', [id, userId])).affected > 0;
  }

  async deleteAllOfUser(userId: string, exceptId?: string): Promise<number> {
    return (await sql(this.dataSource, 'DELETE FROM personal_access_tokens WHERE user_id = $1 AND id <> $2', [userId, exceptId ?? ''])).affected;
  }

  async touch(id: string, at: Date): Promise<void> {
    await sql(this.dataSource, 'UPDATE personal_access_tokens SET last_used_at = $2 WHERE id = $1', [id, at]);
  }
}

export class TypeormAuthorizationCodeRepository extends AuthorizationCodeRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insert(code: AuthorizationCode): Promise<void> {
    const p = code.props;
    await sql(
      this.dataSource,
      `INSERT INTO authorization_codes (id, code_hash, client_id, user_id, redirect_uri, scopes, code_challenge, code_challenge_method, expires_at, consumed_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [p.id, p.codeHash, p.clientId, p.userId, p.redirectUri, p.scopes, p.codeChallenge, p.codeChallengeMethod, p.expiresAt, p.consumedAt, p.createdAt],
    );
  }

  async findByHash(hash: string): Promise<AuthorizationCode | null> {
    return firstOf(await sql(this.dataSource, 'SELECT * FROM authorization_codes WHERE code_hash = $1', [hash]), toAuthorizationCode);
  }

  async consume(id: string, at: Date): Promise<boolean> {
    return (await sql(this.dataSource, 'UPDATE authorization_codes SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL', [id, at])).affected === 1;
  }
}
