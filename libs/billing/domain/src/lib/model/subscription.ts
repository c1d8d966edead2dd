import { DomainError, EntityOf } from '@lnk/shared/kernel';

/**
 * `active`: paid up (or the free plan); `past_due`: the provider could not collect a renewal and is
 * retrying, the plan's limits still hold; `canceled`: ended, no longer the account's subscription.
 */
export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface SubscriptionProps {
  id: string;
  userId: string;
  planId: string;
  status: SubscriptionStatus;
  startDate: Date;
  endedAt: Date | null;
  /** The checkout that bought it; null for the free plan. */
  checkoutSessionId: string | null;
  /** The payment provider's id of the recurring subscription (Stripe's `sub_...`), when it has one. */
  providerSubscriptionId: string | null;
  updatedAt: Date;
}

/**
 * One period of an account on one plan. An account has exactly one subscription that is not canceled:
 * its current one. Ended subscriptions stay as the account's billing history.
 */
export class Subscription extends EntityOf<SubscriptionProps>()(
  'id',
  'userId',
  'planId',
  'status',
  'startDate',
  'endedAt',
  'checkoutSessionId',
  'providerSubscriptionId',
) {
  static start(fields: {
    id: string;
    userId: string;
    planId: string;
    checkoutSessionId: string | null;
    providerSubscriptionId: string | null;
    now: Date;
  }): Subscription {
    const { now, ...rest } = fields;
    return new Subscription({ ...rest, status: 'active', startDate: now, endedAt: null, updatedAt: now });
  }

  get isActive(): boolean {
    return this.props.status === 'active';
  }
  get isCurrent(): boolean {
    return this.props.status !== 'canceled';
  }

  /** A renewal payment failed: the provider retries; returns whether anything changed. */
  markPastDue(now: Date): boolean {
    if (this.props.status !== 'active') return false;
    this.props = { ...this.props, status: 'past_due', updatedAt: now };
    return true;
  }

  /** A payment went through after a failure. */
  markPaid(now: Date): boolean {
    if (this.props.status !== 'past_due') return false;
    this.props = { ...this.props, status: 'active', updatedAt: now };
    return true;
  }

  /** Ends the subscription (replaced by another, or cancelled at the provider). */
  end(now: Date): boolean {
    if (this.props.status === 'canceled') return false;
    this.props = { ...this.props, status: 'canceled', endedAt: now, updatedAt: now };
    return true;
  }

  toProps(): SubscriptionProps {
    return { ...this.props };
  }
}

/** What the caller's checkout session is waiting for: the payment itself. */
export class PaymentNotCompletedError extends DomainError {
  constructor(message = 'The checkout session has not been paid') {
    super('PAYMENT_NOT_COMPLETED', message);
  }
}

/** Billing is off (BILLING=off): the service takes no payments, its operator assigns plans and limits. */
export class BillingDisabledError extends DomainError {
  constructor() {
    super('BILLING_DISABLED', 'Billing is not enabled on this service: no checkout can start; its operator assigns plans and limits');
  }
}
