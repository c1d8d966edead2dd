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

/** What reading an account's current subscription needs (the free plan made at first read). */
export interface SubscriptionReading {
  subscriptions: SubscriptionRepository;
  catalog: PlanCatalog;
  uow: UnitOfWork;
  ids: IdGenerator;
  clock: Clock;
  quota: PlanQuotaPolicy;
}

/** The account's current subscription; an account that never paid gets its free one on first read. */
export class GetSubscriptionUseCase {
  constructor(private readonly deps: SubscriptionReading) {}

  async execute(userId: string): Promise<CurrentSubscription> {
    const subscription =
      (await this.deps.subscriptions.findCurrent(userId)) ??
      (await this.deps.uow.run(async () => {
        await this.deps.subscriptions.lockOwner(userId);
        const raced = await this.deps.subscriptions.findCurrent(userId);
        if (raced) return raced;
        const free = Subscription.start({
          id: this.deps.ids.next(),
          userId,
          planId: this.deps.catalog.free.id,
          checkoutSessionId: null,
          providerSubscriptionId: null,
          now: this.deps.clock.now(),
        });
        await this.deps.subscriptions.insert(free);
        return free;
      }));
    return { subscription, plan: this.deps.catalog.limitsOf(subscription.planId), limits: await this.deps.quota.limitsOf(userId) };
  }
}
