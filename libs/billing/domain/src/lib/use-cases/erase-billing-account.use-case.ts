import { AccountQuotaRepository } from '../ports/account-quota.repository';
import { BillingIncidents } from '../ports/billing-incidents.port';
import { CheckoutRepository } from '../ports/checkout.repository';
import { PaymentGateway } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';

/** What is left to do once the account's deletion has committed. */
export type AfterAccountErased = () => Promise<void>;

/**
 * Billing's part of deleting an account. The rows go inside the deletion's transaction; a paid plan's
 * cancellation at the provider is handed back to run after it commits: a call to Stripe inside the
 * transaction would hold it open for seconds, and would have cancelled a plan whose account a rollback
 * kept. A provider that fails then is reported, never thrown: the account is gone either way, and an
 * operator cancels by hand what the provider would not.
 */
export class EraseBillingAccountUseCase {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly checkouts: CheckoutRepository,
    private readonly gateway: PaymentGateway,
    private readonly incidents: BillingIncidents,
    private readonly quotas: AccountQuotaRepository,
  ) {}

  async execute(userId: string): Promise<AfterAccountErased> {
    const providerSubscriptionId = (await this.subscriptions.findCurrent(userId))?.providerSubscriptionId ?? null;
    await this.subscriptions.deleteAllOfOwner(userId);
    await this.checkouts.deleteAllOfOwner(userId);
    await this.quotas.deleteAllOfOwner(userId);
    await this.gateway.forgetOwner(userId);
    return async () => {
      if (!providerSubscriptionId) return;
      try {
        await this.gateway.cancelSubscription(providerSubscriptionId);
      } catch (error) {
        this.incidents.cancellationFailed(providerSubscriptionId, error instanceof Error ? error.message : String(error));
      }
    };
  }
}
