import { DataSource } from 'typeorm';
import { OAuthClient, OAuthClientRepository } from '@lnk/identity/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import { afterId, containsPattern, countOf, firstOf, rowsOf, sql } from '@lnk/shared/database';
import { toOAuthClient } from './identity.decoders';

export class TypeormOAuthClientRepository extends OAuthClientRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insert(client: OAuthClient): Promise<void> {
    const p = client.toProps();
    await sql(
      this.dataSource,
      `INSERT INTO oauth_clients (id, client_id, secret_hash, owner_id, requested_by, name, description, scopes, redirect_uris,
        is_first_party, is_active, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        p.id,
        p.clientId,
        p.secretHash,
        p.ownerId,
        p.requestedBy,
        p.name,
        p.description,
        p.scopes,
        p.redirectUris,
        p.isFirstParty,
        p.isActive,
        p.createdAt,
        p.updatedAt,
      ],
    );
  }

  async findByClientId(clientId: string): Promise<OAuthClient | null> {
    return firstOf(await sql(this.dataSource, 'SELECT * FROM oauth_clients WHERE client_id = $1', [clientId]), toOAuthClient);
  }

  async findById(id: string): Promise<OAuthClient | null> {
    return firstOf(await sql(this.dataSource, 'SELECT * FROM oauth_clients WHERE id = $1', [id]), toOAuthClient);
  }

  async findOfOwner(ownerId: string, id: string): Promise<OAuthClient | null> {
    return firstOf(
      await sql(this.dataSource, 'SELECT * FROM oauth_clients WHERE id = $1 AND owner_id = $2 AND NOT is_first_party', [id, ownerId]),
      toOAuthClient,
    );
  }

  async listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<OAuthClient>> {
    const params: unknown[] = [ownerId];
    let where = 'owner_id = $1 AND NOT is_first_party';
    if (query) {
      params.push(containsPattern(query));
      where += ` AND name ILIKE $2`;
    }
    const pageParams = [...params];
    const [items, total] = await Promise.all([
      sql(
        this.dataSource,
        `SELECT * FROM oauth_clients WHERE ${where}${afterId(page, pageParams)} ORDER BY id DESC LIMIT ${page.rows} OFFSET ${page.offset}`,
        pageParams,
      ),
      countOf(this.dataSource, `SELECT count(*) AS n FROM oauth_clients WHERE ${where}`, params),
    ]);
    return pageOf(rowsOf(items, toOAuthClient), total, page);
  }

  async update(client: OAuthClient, unchangedSince?: Date): Promise<boolean> {
    const p = client.toProps();
    // The condition and the write are one statement, and updated_at always moves on: a write that came
    // between the caller's read and this one leaves this one changing nothing (If-Match, no lost update).
    const { affected } = await sql(
      this.dataSource,
      `UPDATE oauth_clients SET client_id = $2, secret_hash = $3, owner_id = $4, requested_by = $5, name = $6, description = $7,
        scopes = $8, redirect_uris = $9,
              is_first_party = $10, is_active = $11, created_at = $12, updated_at = GREATEST($13, updated_at + interval '1 millisecond')
        WHERE id = $1 AND ($14::timestamptz IS NULL OR updated_at = $14)`,
      [
        p.id,
        p.clientId,
        p.secretHash,
        p.ownerId,
        p.requestedBy,
        p.name,
        p.description,
        p.scopes,
        p.redirectUris,
        p.isFirstParty,
        p.isActive,
        p.createdAt,
        p.updatedAt,
        unchangedSince ?? null,
      ],
    );
    return affected > 0;
  }

  async deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    return (
      (await sql(this.dataSource, 'DELETE FROM oauth_clients WHERE id = $1 AND owner_id = $2 AND NOT is_first_party', [id, ownerId]))
        .affected > 0
    );
  }
}
