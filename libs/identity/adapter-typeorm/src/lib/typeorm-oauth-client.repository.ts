import { DataSource, Repository } from 'typeorm';
import { OAuthClient, OAuthClientRepository, parseScopes } from '@lnk/identity/domain';
import { OAuthClientRow, OAuthClientSchema } from './identity.schema';

function toDomain(row: OAuthClientRow): OAuthClient {
  return new OAuthClient({ ...row, scopes: parseScopes(row.scopes) });
}

export class TypeormOAuthClientRepository extends OAuthClientRepository {
  private readonly rows: Repository<OAuthClientRow>;

  constructor(dataSource: DataSource) {
    super();
    this.rows = dataSource.getRepository(OAuthClientSchema);
  }

  async insert(client: OAuthClient): Promise<void> {
    await this.rows.insert(client.toProps());
  }

  async findByClientId(clientId: string): Promise<OAuthClient | null> {
    const row = await this.rows.findOneBy({ clientId });
    return row ? toDomain(row) : null;
  }
}
