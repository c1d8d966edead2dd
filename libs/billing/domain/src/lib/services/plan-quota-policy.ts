import { QuotaPolicy, QuotaResource } from '@lnk/shared/kernel';
import { effectiveLimits, PlanCatalog } from '../model/plan';
import { AccountQuotaRepository } from '../ports/account-quota.repository';

/**
 * Quotas of links, domains and tags: the limits of the account's current plan, each replaced by the
 * operator's custom limit where one is set. Read on every call (no cache), so a plan assigned or a limit
 * set by the operator holds for the next creation on every running server.
 */
export class PlanQuotaPolicy extends QuotaPolicy {
  constructor(
    private readonly quotas: AccountQuotaRepository,
    private readonly catalog: PlanCatalog,
  ) {
    super();
  }

  async limitFor(ownerId: string, resource: QuotaResource): Promise<number> {
    return (await this.limitsOf(ownerId))[resource];
  }

  /** Every limit of the account, with one read. */
  async limitsOf(ownerId: string): Promise<Record<QuotaResource, number>> {
    const { planId, custom } = await this.quotas.quotaOf(ownerId);
    return effectiveLimits(planId === null ? this.catalog.free : this.catalog.limitsOf(planId), custom);
  }
}
