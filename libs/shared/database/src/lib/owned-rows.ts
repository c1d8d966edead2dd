import { DataSource } from 'typeorm';
import { deleteCounted, insertWithinQuota, usedOf } from './quota';
import { sql } from './sql';
import { guardUnique, UniqueField } from './unique-violation';

/** Where an owner's rows of one resource are counted: a usage table (see `quota.ts`) and the resource's name in it. */
export interface UsageOf {
  table: string;
  resource: string;
}

/**
 * What every table of rows an account owns (links, tags, custom domains) does alike: insert under the
 * owner's quota with its unique field guarded, delete one row of the owner's, count and delete all of
 * them, each through the owner's usage row (exact, kept by the table's triggers). `table` and `usage`
 * are constants of the repository, never input.
 */
export class OwnedRows {
  private readonly deleteOneStatement: string;
  private readonly deleteAllStatement: string;

  constructor(
    private readonly dataSource: DataSource,
    table: string,
    private readonly usage: UsageOf,
    private readonly unique: UniqueField,
  ) {
    this.deleteOneStatement = `DELETE FROM ${table} WHERE id = $1 AND owner_id = $2`;
    this.deleteAllStatement = `DELETE FROM ${table} WHERE owner_id = $1`;
  }

  private usageOf(ownerId: string) {
    return { ...this.usage, ownerId };
  }

  /** `insert` runs holding the owner's usage row (see insertWithinQuota); a taken unique field is a ValidationError on it. */
  insertWithinQuota(ownerId: string, limit: number, insert: () => Promise<void>): Promise<void> {
    return guardUnique(this.unique, () => insertWithinQuota(this.dataSource, { ...this.usageOf(ownerId), limit }, insert));
  }

  async deleteOne(ownerId: string, id: string): Promise<boolean> {
    const result = await deleteCounted(this.dataSource, this.usageOf(ownerId), () => sql(this.dataSource, this.deleteOneStatement, [id, ownerId]));
    return result.affected > 0;
  }

  count(ownerId: string): Promise<number> {
    return usedOf(this.dataSource, this.usageOf(ownerId));
  }

  async deleteAll(ownerId: string): Promise<void> {
    await deleteCounted(this.dataSource, this.usageOf(ownerId), () => sql(this.dataSource, this.deleteAllStatement, [ownerId]));
  }
}
