/** What the sandbox payment page shows. */
export interface SandboxSessionView {
  id: string;
  planId: string;
  planName: string;
  price: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  paid: boolean;
  expired: boolean;
  /** The subscription a paid session starts (the sandbox's stand-in for Stripe's `sub_...`). */
  providerSubscriptionId: string | null;
}

export type SandboxPayment =
  | { outcome: 'paid'; session: SandboxSessionView }
  | { outcome: 'already_paid'; session: SandboxSessionView }
  | { outcome: 'expired' }
  | { outcome: 'unknown' };

/** The built-in sandbox provider's checkout sessions, which its own page shows and pays (BILLING=sandbox). */
export abstract class SandboxCheckouts {
  /** Null when there is no such session. */
  abstract session(sessionId: string): Promise<SandboxSessionView | null>;
  /** Pays the session (once; paying again answers already_paid). An expired session cannot be paid. */
  abstract pay(sessionId: string): Promise<SandboxPayment>;
}
