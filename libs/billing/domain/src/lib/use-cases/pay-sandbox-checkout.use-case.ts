import { SandboxCheckouts, SandboxPayment } from '../ports/sandbox-checkouts.port';
import { HandlePaymentEventUseCase } from './handle-payment-event.use-case';

/** The sandbox page's one form: pays the checkout session. */
export class PaySandboxCheckoutUseCase {
  constructor(
    private readonly sandbox: SandboxCheckouts,
    private readonly events: HandlePaymentEventUseCase,
  ) {}

  async execute(sessionId: string): Promise<SandboxPayment> {
    const payment = await this.sandbox.pay(sessionId);
    // Like a provider's webhook: a paid session (now or before) starts its subscription now, whether or
    // not the client verifies; activation is once per session.
    if (payment.outcome === 'paid' || payment.outcome === 'already_paid') {
      await this.events.execute({ kind: 'checkout_paid', sessionId, providerSubscriptionId: payment.session.providerSubscriptionId });
    }
    return payment;
  }
}
