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
export interface PlanAssignment {
  subscriptions: SubscriptionRepository;
  catalog: PlanCatalog;
  gateway: PaymentGateway;
  uow: UnitOfWork;
  ids: IdGenerator;
  clock: Clock;
  /** Answers the account's subscription once assigned, with its limits. */
  current: GetSubscriptionUseCase;
}

export class AssignPlanUseCase {
  constructor(private readonly m: PlanAssignment) {}

  async execute(userId: string, planId: string): Promise<CurrentSubscription> {
    const { subscriptions, catalog, gateway, uow, ids, clock } = this.m;
    const plan = catalog.known(planId, 'plan');
    let replacedAtProvider: string | null = null;
    await uow.run(async () => {
      await subscriptions.lockOwner(userId);
      const now = clock.now();
      const current = await subscriptions.findCurrent(userId);
      if (current?.isActive && current.planId === plan.id) return;
      if (current?.end(now)) {
        await subscriptions.save(current);
        replacedAtProvider = current.providerSubscriptionId;
      }
      await subscriptions.insert(
        Subscription.start({ id: ids.next(), userId, planId: plan.id, checkoutSessionId: null, providerSubscriptionId: null, now }),
      );
    });
    if (replacedAtProvider) {
      try {
        await gateway.cancelSubscription(replacedAtProvider);
      } catch (error) {
        // The plan is assigned (committed); the operator is told what is left to do by hand.
        throw new Error(
          'the plan is assigned, but the payment provider did not cancel the replaced ' +
            `subscription ${replacedAtProvider}: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    return this.m.current.execute(userId);
  }
}
