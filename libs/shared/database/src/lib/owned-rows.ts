import { DataSource } from 'typeorm';
import { insertWithinQuota } from './quota';
import { countOf } from './row-decoder';
import { sql } from './sql';
import { guardUnique, UniqueField } from './unique-violation';

/**
 * What every table of rows an account owns (links, tags, custom domains) does alike: insert under the
 * owner's quota with its unique field guarded, delete one row of the owner's, count and delete all of
 * them. `table` and `resource` are constants of the repository, never input.
 */
export class OwnedRows {
  private readonly deleteOneStatement: string;
  private readonly countStatement: string;
  private readonly deleteAllStatement: string;

  constructor(
    private readonly dataSource: DataSource,
    table: string,
    private readonly resource: string,
    private readonly unique: UniqueField,
  ) {
    this.deleteOneStatement = `DELETE FROM ${table} WHERE id = $1 AND owner_id = $2`;
    this.countStatement = `SELECT count(*) AS n FROM ${table} WHERE owner_id = $1`;
    this.deleteAllStatement = `DELETE FROM ${table} WHERE owner_id = $1`;
  }

  /** `insert` runs under the owner's quota lock (see insertWithinQuota); a taken unique field is a ValidationError on it. */
  insertWithinQuota(ownerId: string, limit: number, insert: () => Promise<void>): Promise<void> {
    const quota = { resource: this.resource, ownerId, limit, count: () => this.count(ownerId) };
    return guardUnique(this.unique, () => insertWithinQuota(this.dataSource, quota, insert));
  }

  async deleteOne(ownerId: string, id: string): Promise<boolean> {
    return (await sql(this.dataSource, this.deleteOneStatement, [id, ownerId])).affected > 0;
  }

  count(ownerId: string): Promise<number> {
    return countOf(this.dataSource, this.countStatement, [ownerId]);
  }

  async deleteAll(ownerId: string): Promise<void> {
    await sql(this.dataSource, this.deleteAllStatement, [ownerId]);
  }
}
