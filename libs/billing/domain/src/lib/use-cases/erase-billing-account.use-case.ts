import { AccountQuotaRepository } from '../ports/account-quota.repository';
import { BillingIncidents } from '../ports/billing-incidents.port';
import { CheckoutRepository } from '../ports/checkout.repository';
import { PaymentGateway } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';

/** What is left to do once the account's deletion has committed. */
export type AfterAccountErased = () => Promise<void>;

/** What erasing an account's billing touches: its subscriptions, checkouts, quota row and the provider's subscription. */
export interface BillingErasure {
  subscriptions: SubscriptionRepository;
  checkouts: CheckoutRepository;
  gateway: PaymentGateway;
  incidents: BillingIncidents;
  quotas: AccountQuotaRepository;
}

/**
 * Billing's part of deleting an account. The rows go inside the deletion's transaction; a paid plan's
 * cancellation at the provider is handed back to run after it commits: a call to Stripe inside the
 * transaction would hold it open for seconds, and would have cancelled a plan whose account a rollback
 * kept. A provider that fails then is reported, never thrown: the account is gone either way, and an
 * operator cancels by hand what the provider would not.
 */
export class EraseBillingAccountUseCase {
  constructor(private readonly deps: BillingErasure) {}

  async execute(userId: string): Promise<AfterAccountErased> {
    const providerSubscriptionId = (await this.deps.subscriptions.findCurrent(userId))?.providerSubscriptionId ?? null;
    await this.deps.subscriptions.deleteAllOfOwner(userId);
    await this.deps.checkouts.deleteAllOfOwner(userId);
    await this.deps.quotas.deleteAllOfOwner(userId);
    await this.deps.gateway.forgetOwner(userId);
    return async () => {
      if (!providerSubscriptionId) return;
      try {
        await this.deps.gateway.cancelSubscription(providerSubscriptionId);
      } catch (error) {
        this.deps.incidents.cancellationFailed(providerSubscriptionId, error instanceof Error ? error.message : String(error));
      }
    };
  }
}
