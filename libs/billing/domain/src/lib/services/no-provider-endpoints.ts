import { NotFoundError } from '@lnk/shared/kernel';
import { PaymentEvent } from '../ports/payment-gateway.port';
import { PaymentWebhookReader } from '../ports/payment-webhook-reader.port';
import { SandboxCheckouts, SandboxPayment, SandboxSessionView } from '../ports/sandbox-checkouts.port';

/** Stripe's webhook without Stripe configured: the endpoint is not there, whatever the call carries. */
export class NoPaymentWebhookReader extends PaymentWebhookReader {
  read(): PaymentEvent | null {
    throw new NotFoundError('Stripe webhook endpoint (Stripe is not configured)');
  }
}

/** The sandbox's sessions unless BILLING=sandbox: there are none, so its page knows no session. */
export class NoSandboxCheckouts extends SandboxCheckouts {
  async session(): Promise<SandboxSessionView | null> {
    return null;
  }

  async pay(): Promise<SandboxPayment> {
    return { outcome: 'unknown' };
  }
}
