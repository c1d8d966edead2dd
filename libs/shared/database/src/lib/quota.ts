import { DataSource } from 'typeorm';
import { QuotaExceededError } from '@lnk/shared/kernel';
import { inTransaction, lockKey } from './transaction';

export interface Quota {
  /** Names the quota in `QuotaExceededError` and, with the owner, the advisory lock (`links:<owner>`). */
  resource: string;
  ownerId: string;
  limit: number;
  /** What the owner holds now, read under the lock. */
  count: () => Promise<number>;
}

/**
 * Inserts within the owner's quota: under the owner's advisory lock (two writers cannot both take the
 * last free slot), counts, throws `QuotaExceededError` when none is left, else runs `insert`, all in one
 * transaction (the caller's unit of work when there is one).
 */
export function insertWithinQuota(dataSource: DataSource, quota: Quota, insert: () => Promise<void>): Promise<void> {
  return inTransaction(dataSource, async () => {
    await lockKey(dataSource, `${quota.resource}:${quota.ownerId}`);
    const used = await quota.count();
    if (used >= quota.limit) throw new QuotaExceededError(quota.resource, used, quota.limit);
    await insert();
  });
}
