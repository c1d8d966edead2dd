import { DataSource } from 'typeorm';
import { deleteCounted, insertWithinQuota, Quota, usedOf } from './quota';
import { sql } from './sql';
import { guardUnique, UniqueField } from './unique-violation';

/** Where an owner's rows of one resource are counted: a usage table (see `quota.ts`) and the resource's name in it. */
export interface UsageOf {
  table: string;
  resource: string;
  /** See Usage.stripes in quota.ts. */
  stripes?: number;
}

/**
 * What every repository of rows an account owns (links, tags, custom domains, webhooks) does alike, written
 * once: insert under the owner's quota with its unique field (if any) guarded, delete one row of the owner's, count and
 * delete all of them, each through the owner's usage row (exact, kept by the table's triggers). `table`
 * and `usage` are constants of the repository, never input. A repository extends this and `implements`
 * its port (a class has one base): the port stays the type and the token it is provided under.
 */
export abstract class OwnedRowsRepository<Props extends { ownerId: string }> {
  private readonly deleteOneStatement: string;
  private readonly deleteAllStatement: string;

  protected constructor(
    protected readonly dataSource: DataSource,
    table: string,
    private readonly usage: UsageOf,
    /** The unique constraint that stands for a rule on an input field; null where the rows have none (webhooks). */
    private readonly unique: UniqueField | null,
  ) {
    this.deleteOneStatement = `DELETE FROM ${table} WHERE id = $1 AND owner_id = $2`;
    this.deleteAllStatement = `DELETE FROM ${table} WHERE owner_id = $1`;
  }

  /**
   * Writes the new row (and its dependants) within the owner's quota, atomically under concurrent calls: a
   * repository either writes it with `insertLockingFirst` or checks the quota in its own insert statement.
   */
  protected abstract insertCounted(props: Props, quota: Quota): Promise<void>;

  /** Takes the owner's usage row, checks the quota, then runs `write`, in one transaction (see insertWithinQuota in quota.ts). */
  protected insertLockingFirst(quota: Quota, write: () => Promise<unknown>): Promise<void> {
    return insertWithinQuota(this.dataSource, quota, async () => {
      await write();
    });
  }

  private usageOf(ownerId: string) {
    return { ...this.usage, ownerId };
  }

  /** Stores the row if the owner holds fewer than `limit` (else QuotaExceededError); a taken unique field is a ValidationError on it. */
  async insertWithinQuota(entity: { toProps(): Props }, limit: number): Promise<void> {
    const props = entity.toProps();
    const insert = () => this.insertCounted(props, { ...this.usageOf(props.ownerId), limit });
    await (this.unique ? guardUnique(this.unique, insert) : insert());
  }

  async deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    const result = await deleteCounted(this.dataSource, this.usageOf(ownerId), () =>
      sql(this.dataSource, this.deleteOneStatement, [id, ownerId]),
    );
    return result.affected > 0;
  }

  countOfOwner(ownerId: string): Promise<number> {
    return usedOf(this.dataSource, this.usageOf(ownerId));
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    await deleteCounted(this.dataSource, this.usageOf(ownerId), () => sql(this.dataSource, this.deleteAllStatement, [ownerId]));
  }
}
