import { boolean, dateTime, id, LIMIT, named, number, object, oneOfValues, string } from '@lnk/shared/http';

const subscriptionStatus = oneOfValues('active', 'past_due', 'canceled');

export const PlanSchema = named(
  'Plan',
  object({
    id: string,
    name: string,
    price: number,
    currency: string,
    billingCycle: string,
    maxDomains: LIMIT,
    maxLinks: LIMIT,
    maxTags: LIMIT,
  }),
);
export const SubscriptionSchema = named(
  'Subscription',
  object({
    id,
    userId: id,
    planId: string,
    planName: string,
    price: number,
    currency: string,
    status: subscriptionStatus,
    isActive: boolean,
    billingCycle: string,
    maxDomains: LIMIT,
    maxTags: LIMIT,
    maxLinks: LIMIT,
  }),
);
export const CheckoutSessionSchema = named('CheckoutSession', object({ sessionId: string, url: string, expiresAt: dateTime }));
export const VerifiedSubscriptionSchema = named(
  'VerifiedSubscription',
  object({ id, status: subscriptionStatus, planId: string, startDate: dateTime }),
);
export const WebhookReceiptSchema = object({ received: boolean, outcome: oneOfValues('applied', 'unchanged', 'ignored') });
