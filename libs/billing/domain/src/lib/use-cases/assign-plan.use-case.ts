import { Clock, IdGenerator, UnitOfWork } from '@lnk/shared/kernel';
import { PlanCatalog } from '../model/plan';
import { Subscription } from '../model/subscription';
import { PaymentGateway } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';
import { CurrentSubscription, GetSubscriptionUseCase } from './get-subscription.use-case';

/**
 * The operator puts an account on a plan of the catalogue, paid or not (`account:set-plan`): its current
 * subscription ends and one on that plan starts, with no checkout. Assigning the plan it is active on
 * changes nothing. A replaced subscription the provider bills stops renewing there, as after a checkout.
 */
export class AssignPlanUseCase {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly catalog: PlanCatalog,
    private readonly gateway: PaymentGateway,
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly current: GetSubscriptionUseCase,
  ) {}

  async execute(userId: string, planId: string): Promise<CurrentSubscription> {
    const plan = this.catalog.known(planId, 'plan');
    let replacedAtProvider: string | null = null;
    await this.uow.run(async () => {
      await this.subscriptions.lockOwner(userId);
      const now = this.clock.now();
      const current = await this.subscriptions.findCurrent(userId);
      if (current?.isActive && current.planId === plan.id) return;
      if (current?.end(now)) {
        await this.subscriptions.save(current);
        replacedAtProvider = current.providerSubscriptionId;
      }
      await this.subscriptions.insert(Subscription.start({ id: this.ids.next(), userId, planId: plan.id, checkoutSessionId: null, providerSubscriptionId: null, now }));
    });
    if (replacedAtProvider) {
      try {
        await this.gateway.cancelSubscription(replacedAtProvider);
      } catch (error) {
        // The plan is assigned (committed); the operator is told what is left to do by hand.
        throw new Error(`the plan is assigned, but the payment provider did not cancel the replaced subscription ${replacedAtProvider}: ${(error as Error).message}`, { cause: error });
      }
    }
    return this.current.execute(userId);
  }
}
