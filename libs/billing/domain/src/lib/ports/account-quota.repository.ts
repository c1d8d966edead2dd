import { CustomLimits } from '../model/plan';

/** What decides an account's quotas: the plan of its current subscription and the operator's custom limits. */
export interface AccountQuota {
  /** Null before the account's first subscription (it is on the free plan). */
  planId: string | null;
  custom: CustomLimits;
}

export abstract class AccountQuotaRepository {
  /** Both in one read: it precedes every creation of a link, tag or domain. */
  abstract quotaOf(userId: string): Promise<AccountQuota>;
  /** Stores the account's custom limits; all null: none are left (the plan's hold). */
  abstract saveCustomLimits(userId: string, custom: CustomLimits, now: Date): Promise<void>;
  abstract deleteAllOfOwner(userId: string): Promise<void>;
}
