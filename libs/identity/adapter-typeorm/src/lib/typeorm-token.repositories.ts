import { DataSource } from 'typeorm';
import {
  AuthorizationCode,
  AuthorizationCodeRepository,
  OAuthToken,
  OAuthTokenRepository,
  parseScopes,
  PersonalAccessToken,
  PersonalAccessTokenRepository,
} from '@lnk/identity/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import { managerOf, sql } from '@lnk/shared/database';
import { AuthorizationCodeRow, AuthorizationCodeSchema, OAuthTokenRow, OAuthTokenSchema, PersonalAccessTokenRow, PersonalAccessTokenSchema } from './identity.schema';

type Raw = Record<string, unknown>;
const date = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string | Date));

function oauthToken(r: Raw): OAuthToken {
  return new OAuthToken({
    id: r['id'] as string,
    familyId: r['family_id'] as string,
    userId: r['user_id'] as string,
    clientId: r['client_id'] as string,
    scopes: parseScopes(r['scopes'] as string[]),
    accessHash: r['access_hash'] as string,
    refreshHash: r['refresh_hash'] as string,
    accessExpiresAt: date(r['access_expires_at']) as Date,
    refreshExpiresAt: date(r['refresh_expires_at']) as Date,
    authorizationCodeId: (r['authorization_code_id'] as string | null) ?? null,
    authTime: date(r['auth_time']),
    rotatedAt: date(r['rotated_at']),
    revokedAt: date(r['revoked_at']),
    createdAt: date(r['created_at']) as Date,
  });
}

function personalToken(r: PersonalAccessTokenRow): PersonalAccessToken {
  return new PersonalAccessToken({ ...r, scopes: parseScopes(r.scopes) });
}

// Only tokens of active accounts authenticate: the join answers that in the same indexed lookup.
const ACTIVE_OAUTH = `SELECT t.* FROM oauth_tokens t JOIN users u ON u.id = t.user_id AND u.is_active`;

export class TypeormOAuthTokenRepository extends OAuthTokenRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insert(token: OAuthToken): Promise<void> {
    await managerOf(this.dataSource).getRepository<OAuthTokenRow>(OAuthTokenSchema).insert(token.props);
  }

  async findByAccessHash(hash: string): Promise<OAuthToken | null> {
    const { rows } = await sql(this.dataSource, `${ACTIVE_OAUTH} WHERE t.access_hash = $1`, [hash]);
    return rows[0] ? oauthToken(rows[0]) : null;
  }

  async findByRefreshHash(hash: string): Promise<OAuthToken | null> {
    const { rows } = await sql(this.dataSource, `${ACTIVE_OAUTH} WHERE t.refresh_hash = $1`, [hash]);
    return rows[0] ? oauthToken(rows[0]) : null;
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

  private get rows() {
    return managerOf(this.dataSource).getRepository<PersonalAccessTokenRow>(PersonalAccessTokenSchema);
  }

  async insert(token: PersonalAccessToken): Promise<void> {
    await this.rows.insert(token.props);
  }

  async findByHash(hash: string): Promise<PersonalAccessToken | null> {
    const { rows } = await sql<PersonalAccessTokenRow & Raw>(
      this.dataSource,
      `SELECT p.id, p.user_id AS "userId", p.name, p.description, p.scopes, p.token_hash AS "tokenHash", p.last_used_at AS "lastUsedAt",
              p.expires_at AS "expiresAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt"
         FROM personal_access_tokens p JOIN users u ON u.id = p.user_id AND u.is_active
        WHERE p.token_hash = $1`,
      [hash],
    );
    return rows[0] ? personalToken({ ...rows[0], lastUsedAt: date(rows[0].lastUsedAt), expiresAt: date(rows[0].expiresAt), createdAt: date(rows[0].createdAt) as Date, updatedAt: date(rows[0].updatedAt) as Date }) : null;
  }

  async findOfUser(userId: string, id: string): Promise<PersonalAccessToken | null> {
    const row = await this.rows.findOneBy({ id, userId });
    return row ? personalToken(row) : null;
  }

  async listOfUser(userId: string, page: PageRequest): Promise<Page<PersonalAccessToken>> {
    const [rows, total] = await this.rows.findAndCount({ where: { userId }, order: { id: 'DESC' }, skip: page.start, take: page.limit });
    return pageOf(rows.map(personalToken), total, page);
  }

  async deleteOfUser(userId: string, id: string): Promise<boolean> {
    return (await sql(this.dataSource, 'DELETE FROM personal_access_tokens WHERE id = $1 AND user_id = $2', [id, userId])).affected > 0;
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM personal_access_tokens WHERE user_id = $1', [userId]);
  }

  async touch(id: string, at: Date): Promise<void> {
    await sql(this.dataSource, 'UPDATE personal_access_tokens SET last_used_at = $2 WHERE id = $1', [id, at]);
  }
}

export class TypeormAuthorizationCodeRepository extends AuthorizationCodeRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get rows() {
    return managerOf(this.dataSource).getRepository<AuthorizationCodeRow>(AuthorizationCodeSchema);
  }

  async insert(code: AuthorizationCode): Promise<void> {
    await this.rows.insert(code.props);
  }

  async findByHash(hash: string): Promise<AuthorizationCode | null> {
    const row = await this.rows.findOneBy({ codeHash: hash });
    if (!row) return null;
    return new AuthorizationCode({ ...row, scopes: parseScopes(row.scopes), codeChallengeMethod: row.codeChallengeMethod === 'S256' ? 'S256' : null });
  }

  async consume(id: string, at: Date): Promise<boolean> {
    return (await sql(this.dataSource, 'UPDATE authorization_codes SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL', [id, at])).affected === 1;
  }
}
