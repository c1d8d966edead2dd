import { PaymentEvent } from './payment-gateway.port';

/** A signature the provider did not make, or a payload that is not an event. */
export class InvalidWebhookError extends Error {}

/** A payment provider's signed notifications (Stripe's webhook): each authenticated, then read as a PaymentEvent. */
export abstract class PaymentWebhookReader {
  /**
   * The event the payload carries; null for event types billing does not act on. Throws
   * InvalidWebhookError for a payload the provider did not sign.
   */
  abstract read(payload: Uint8Array | string, signature: string | undefined): PaymentEvent | null;
}
