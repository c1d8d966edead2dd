import { DataSource } from 'typeorm';
import {
  AuthorizationCode,
  AuthorizationCodeRepository,
  OAuthToken,
  OAuthTokenRepository,
  PatRoom,
  PersonalAccessToken,
  PersonalAccessTokenRepository,
} from '@lnk/identity/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import { afterId, countOf, firstOf, insertRow, inTransaction, lockKey, rowsOf, sql } from '@lnk/shared/database';
import { toAuthorizationCode, toOAuthToken, toPersonalAccessToken } from './identity.decoders';

/** The rows the tokens are stored as, column by column (identity.decoders.ts reads them back). */
const oauthTokenRow = (p: OAuthToken['props']) => ({
  id: p.id,
  family_id: p.familyId,
  user_id: p.userId,
  client_id: p.clientId,
  scopes: p.scopes,
  access_hash: p.accessHash,
  refresh_hash: p.refreshHash,
  access_expires_at: p.accessExpiresAt,
  refresh_expires_at: p.refreshExpiresAt,
  authorization_code_id: p.authorizationCodeId,
  auth_time: p.authTime,
  rotated_at: p.rotatedAt,
  revoked_at: p.revokedAt,
  created_at: p.createdAt,
});
const authorizationCodeRow = (p: AuthorizationCode['props']) => ({
  id: p.id,
  code_hash: p.codeHash,
  client_id: p.clientId,
  user_id: p.userId,
  redirect_uri: p.redirectUri,
  scopes: p.scopes,
  code_challenge: p.codeChallenge,
  code_challenge_method: p.codeChallengeMethod,
  expires_at: p.expiresAt,
  consumed_at: p.consumedAt,
  created_at: p.createdAt,
});

// Only tokens of active accounts authenticate: the join answers that in the same indexed lookup.
const ACTIVE_OAUTH = `SELECT t.* FROM oauth_tokens t JOIN users u ON u.id = t.user_id AND u.is_active`;

export class TypeormOAuthTokenRepository extends OAuthTokenRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insert(token: OAuthToken): Promise<void> {
    await insertRow(this.dataSource, 'oauth_tokens', oauthTokenRow(token.props));
  }

  async findByAccessHash(hash: string): Promise<OAuthToken | null> {
    return firstOf(await sql(this.dataSource, `${ACTIVE_OAUTH} WHERE t.access_hash = $1`, [hash]), toOAuthToken);
  }

  async findByRefreshHash(hash: string): Promise<OAuthToken | null> {
    return firstOf(await sql(this.dataSource, `${ACTIVE_OAUTH} WHERE t.refresh_hash = $1`, [hash]), toOAuthToken);
  }

  async markRotated(id: string, at: Date): Promise<boolean> {
    const { affected } = await sql(
      this.dataSource,
      'UPDATE oauth_tokens SET rotated_at = $2 WHERE id = $1 AND rotated_at IS NULL AND revoked_at IS NULL',
      [id, at],
    );
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
    await sql(this.dataSource, 'UPDATE oauth_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND id <> $3', [
      userId,
      at,
      exceptTokenId ?? '',
    ]);
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
      const active = await countOf(
        this.dataSource,
        'SELECT count(*) AS n FROM personal_access_tokens WHERE user_id = $1 AND (expires_at IS NULL OR expires_at > $2)',
        [p.userId, now],
      );
      if (active >= room.maxActive) return { stored: false, active };
      await insertRow(this.dataSource, 'personal_access_tokens', {
        id: p.id,
        user_id: p.userId,
        name: p.name,
        description: p.description,
        scopes: p.scopes,
        token_hash: p.tokenHash,
        last_used_at: p.lastUsedAt,
        expires_at: p.expiresAt,
        created_at: p.createdAt,
        updated_at: p.updatedAt,
      });
      return { stored: true, active };
    });
  }

  async findByHash(hash: string): Promise<PersonalAccessToken | null> {
    const result = await sql(
      this.dataSource,
      'SELECT p.* FROM personal_access_tokens p JOIN users u ON u.id = p.user_id AND u.is_active WHERE p.token_hash = $1',
      [hash],
    );
    return firstOf(result, toPersonalAccessToken);
  }

  async findOfUser(userId: string, id: string): Promise<PersonalAccessToken | null> {
    return firstOf(
      await sql(this.dataSource, 'SELECT * FROM personal_access_tokens WHERE id = $1 AND user_id = $2', [id, userId]),
      toPersonalAccessToken,
    );
  }

  async listOfUser(userId: string, page: PageRequest): Promise<Page<PersonalAccessToken>> {
    const pageParams: unknown[] = [userId];
    const [items, total] = await Promise.all([
      sql(
        this.dataSource,
        'SELECT * FROM personal_access_tokens ' +
          `WHERE user_id = $1${afterId(page, pageParams)} ORDER BY id DESC ` +
          `LIMIT ${page.rows} OFFSET ${page.offset}`,
        pageParams,
      ),
      countOf(this.dataSource, 'SELECT count(*) AS n FROM personal_access_tokens WHERE user_id = $1', [userId]),
    ]);
    return pageOf(rowsOf(items, toPersonalAccessToken), total, page, (t) => [t.props.id]);
  }

  async deleteOfUser(userId: string, id: string): Promise<boolean> {
    return (await sql(this.dataSource, 'DELETE FROM personal_access_tokens WHERE id = $1 AND user_id = $2', [id, userId])).affected > 0;
  }

  async deleteAllOfUser(userId: string, exceptId?: string): Promise<number> {
    return (await sql(this.dataSource, 'DELETE FROM personal_access_tokens WHERE user_id = $1 AND id <> $2', [userId, exceptId ?? '']))
      .affected;
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
    await insertRow(this.dataSource, 'authorization_codes', authorizationCodeRow(code.props));
  }

  async findByHash(hash: string): Promise<AuthorizationCode | null> {
    return firstOf(await sql(this.dataSource, 'SELECT * FROM authorization_codes WHERE code_hash = $1', [hash]), toAuthorizationCode);
  }

  async consume(id: string, at: Date): Promise<boolean> {
    return (
      (await sql(this.dataSource, 'UPDATE authorization_codes SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL', [id, at]))
        .affected === 1
    );
  }
}
