import { DataSource } from 'typeorm';
import { OAuthClient, OperatorDirectory, parseScopes, User } from '@lnk/identity/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import { managerOf } from '@lnk/shared/database';
import { OAuthClientRow, OAuthClientSchema, UserRow, UserSchema } from './identity.schema';

export class TypeormOperatorDirectory extends OperatorDirectory {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async listUsers(page: PageRequest): Promise<Page<User>> {
    const [rows, total] = await managerOf(this.dataSource)
      .getRepository<UserRow>(UserSchema)
      .findAndCount({ order: { createdAt: 'ASC', id: 'ASC' }, skip: page.start, take: page.limit });
    return pageOf(
      rows.map((row) => new User(row)),
      total,
      page,
    );
  }

  async listFirstPartyClients(page: PageRequest): Promise<Page<OAuthClient>> {
    const [rows, total] = await managerOf(this.dataSource)
      .getRepository<OAuthClientRow>(OAuthClientSchema)
      .findAndCount({ where: { isFirstParty: true }, order: { createdAt: 'ASC', id: 'ASC' }, skip: page.start, take: page.limit });
    return pageOf(
      rows.map((row) => new OAuthClient({ ...row, scopes: parseScopes(row.scopes) })),
      total,
      page,
    );
  }
}
