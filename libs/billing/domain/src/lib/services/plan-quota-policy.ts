import { QuotaPolicy, QuotaResource } from '@lnk/shared/kernel';
import { limitOf, Plan, PlanCatalog } from '../model/plan';
import { SubscriptionRepository } from '../ports/subscription.repository';

/** Quotas of links, domains and tags are the limits of the account's current plan. */
export class PlanQuotaPolicy extends QuotaPolicy {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly catalog: PlanCatalog,
  ) {
    super();
  }

  async limitFor(ownerId: string, resource: QuotaResource): Promise<number> {
    return limitOf(await this.planOf(ownerId), resource);
  }

  /** Every limit of the account's plan, with one read. */
  async limitsOf(ownerId: string): Promise<Record<QuotaResource, number>> {
    const plan = await this.planOf(ownerId);
    return { links: plan.maxLinks, domains: plan.maxDomains, tags: plan.maxTags };
  }

  private async planOf(ownerId: string): Promise<Plan> {
    const current = await this.subscriptions.findCurrent(ownerId);
    return current ? this.catalog.limitsOf(current.planId) : this.catalog.free;
  }
}
