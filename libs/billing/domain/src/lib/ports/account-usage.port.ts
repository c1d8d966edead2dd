import { QuotaResource } from '@lnk/shared/kernel';

/** How much of each limited resource an account holds, counted by the contexts that own the data. */
export abstract class AccountUsage {
  abstract usageOf(ownerId: string): Promise<Record<QuotaResource, number>>;
}
