import type { CheckoutSession, Plan, Subscription } from '@lnk/billing/domain';
import type { QuotaResource } from '@lnk/shared/kernel';
import type { Static } from '@lnk/shared/http';
import type { CheckoutSessionSchema, PlanSchema, SubscriptionSchema, VerifiedSubscriptionSchema } from './billing.schemas';

export function presentPlan(plan: Plan): Static<typeof PlanSchema> {
  return {
    id: plan.id,
    name: plan.name,
    price: plan.price,
    currency: plan.currency,
    billingCycle: plan.billingCycle,
    maxDomains: plan.maxDomains,
    maxLinks: plan.maxLinks,
    maxTags: plan.maxTags,
  };
}

/** The account's subscription with its plan's name and price, and its limits: the plan's or the operator's custom ones (spec 2.8). */
export function presentSubscription(s: Subscription, plan: Plan, limits: Record<QuotaResource, number>): Static<typeof SubscriptionSchema> {
  return {
    id: s.id,
    userId: s.userId,
    planId: s.planId,
    planName: plan.name,
    price: plan.price,
    currency: plan.currency,
    status: s.status,
    isActive: s.isActive,
    billingCycle: plan.billingCycle,
    maxDomains: limits.domains,
    maxTags: limits.tags,
    maxLinks: limits.links,
  };
}

export function presentCheckoutSession(session: CheckoutSession): Static<typeof CheckoutSessionSchema> {
  return { sessionId: session.sessionId, url: session.url, expiresAt: session.expiresAt.toISOString() };
}

export function presentVerified(s: Subscription): Static<typeof VerifiedSubscriptionSchema> {
  return { id: s.id, status: s.status, planId: s.planId, startDate: s.startDate.toISOString() };
}
