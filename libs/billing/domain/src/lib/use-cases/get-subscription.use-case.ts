import { Clock, IdGenerator, QuotaResource, UnitOfWork } from '@lnk/shared/kernel';
import { Plan, PlanCatalog } from '../model/plan';
import { Subscription } from '../model/subscription';
import { SubscriptionRepository } from '../ports/subscription.repository';
import { PlanQuotaPolicy } from '../services/plan-quota-policy';

export interface CurrentSubscription {
  subscription: Subscription;
  plan: Plan;
  /** The plan's limits with the operator's custom limits of the account in their place: its quotas. */
  limits: Record<QuotaResource, number>;
}

/** The account's current subscription; an account that never paid gets its free one on first read. */
export class GetSubscriptionUseCase {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly catalog: PlanCatalog,
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly quota: PlanQuotaPolicy,
  ) {}

  async execute(userId: string): Promise<CurrentSubscription> {
    const subscription =
      (await this.subscriptions.findCurrent(userId)) ??
      (await this.uow.run(async () => {
        await this.subscriptions.lockOwner(userId);
        const raced = await this.subscriptions.findCurrent(userId);
        if (raced) return raced;
        const free = Subscription.start({ id: this.ids.next(), userId, planId: this.catalog.free.id, checkoutSessionId: null, providerSubscriptionId: null, now: this.clock.now() });
        await this.subscriptions.insert(free);
        return free;
      }));
    return { subscription, plan: this.catalog.limitsOf(subscription.planId), limits: await this.quota.limitsOf(userId) };
  }
}
