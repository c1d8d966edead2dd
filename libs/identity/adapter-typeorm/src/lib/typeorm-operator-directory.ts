import { DataSource } from 'typeorm';
import { OAuthClient, OperatorDirectory, User } from '@lnk/identity/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import { countOf, rowsOf, sql } from '@lnk/shared/database';
import { toOAuthClient, toUser, USER_COLUMNS } from './identity.decoders';

export class TypeormOperatorDirectory extends OperatorDirectory {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async listUsers(page: PageRequest): Promise<Page<User>> {
    const [items, total] = await Promise.all([
      sql(this.dataSource, `SELECT ${USER_COLUMNS} FROM users ORDER BY created_at ASC, id ASC LIMIT ${page.limit} OFFSET ${page.start}`),
      countOf(this.dataSource, 'SELECT count(*) AS n FROM users'),
    ]);
    return pageOf(rowsOf(items, toUser), total, page);
  }

  async listFirstPartyClients(page: PageRequest): Promise<Page<OAuthClient>> {
    const [items, total] = await Promise.all([
      sql(
        this.dataSource,
        `SELECT * FROM oauth_clients WHERE is_first_party ORDER BY created_at ASC, id ASC LIMIT ${page.limit} OFFSET ${page.start}`,
      ),
      countOf(this.dataSource, 'SELECT count(*) AS n FROM oauth_clients WHERE is_first_party'),
    ]);
    return pageOf(rowsOf(items, toOAuthClient), total, page);
  }
}
