import { PaymentWebhookReader } from '../ports/payment-webhook-reader.port';
import { HandlePaymentEventUseCase, PaymentEventOutcome } from './handle-payment-event.use-case';

/** A payment provider's webhook call (Stripe's): authenticated and read by its reader, then applied. */
export class ReceivePaymentWebhookUseCase {
  constructor(
    private readonly reader: PaymentWebhookReader,
    private readonly events: HandlePaymentEventUseCase,
  ) {}

  /** Throws InvalidWebhookError for a payload the provider did not sign; an event billing does not act on is ignored. */
  async execute(payload: Uint8Array | string, signature: string | undefined): Promise<PaymentEventOutcome> {
    const event = this.reader.read(payload, signature);
    return event ? this.events.execute(event) : 'ignored';
  }
}
