import { DataSource } from 'typeorm';
import { OAuthClient, OAuthClientRepository, parseScopes } from '@lnk/identity/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import { containsPattern, managerOf, sql } from '@lnk/shared/database';
import { OAuthClientRow, OAuthClientSchema } from './identity.schema';

function toDomain(row: OAuthClientRow): OAuthClient {
  return new OAuthClient({ ...row, scopes: parseScopes(row.scopes) });
}

export class TypeormOAuthClientRepository extends OAuthClientRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get rows() {
    return managerOf(this.dataSource).getRepository<OAuthClientRow>(OAuthClientSchema);
  }

  async insert(client: OAuthClient): Promise<void> {
    await this.rows.insert(client.toProps());
  }

  async findByClientId(clientId: string): Promise<OAuthClient | null> {
    const row = await this.rows.findOneBy({ clientId });
    return row ? toDomain(row) : null;
  }

  async findById(id: string): Promise<OAuthClient | null> {
    const row = await this.rows.findOneBy({ id });
    return row ? toDomain(row) : null;
  }

  async findOfOwner(ownerId: string, id: string): Promise<OAuthClient | null> {
    const row = await this.rows.findOneBy({ id, ownerId, isFirstParty: false });
    return row ? toDomain(row) : null;
  }

  async listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<OAuthClient>> {
    const builder = this.rows.createQueryBuilder('c').where('c.owner_id = :ownerId AND NOT c.is_first_party', { ownerId });
    if (query) builder.andWhere(`c.name ILIKE :pattern ESCAPE '\\'`, { pattern: containsPattern(query) });
    const [rows, total] = await builder.orderBy('c.id', 'DESC').skip(page.start).take(page.limit).getManyAndCount();
    return pageOf(rows.map(toDomain), total, page);
  }

  async update(client: OAuthClient): Promise<void> {
    const { id, ...changes } = client.toProps();
    await this.rows.update({ id }, changes);
  }

  async deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    return (await sql(this.dataSource, 'DELETE FROM oauth_clients WHERE id = $1 AND owner_id = $2 AND NOT is_first_party', [id, ownerId])).affected > 0;
  }
}
