import { QuotaResource, UNLIMITED, ValidationError } from '@lnk/shared/kernel';

export type BillingCycle = 'monthly';

/** What an account may hold and what it costs: `price` in the currency's major unit per billing cycle. */
export interface Plan {
  id: string;
  name: string;
  price: number;
  currency: string;
  billingCycle: BillingCycle;
  maxDomains: number;
  maxLinks: number;
  maxTags: number;
}

/** The catalogue the service sells when configuration names none. */
export const DEFAULT_PLANS: readonly Plan[] = [
  { id: 'free', name: 'Free', price: 0, currency: 'USD', billingCycle: 'monthly', maxDomains: 1, maxLinks: 100, maxTags: 10 },
  { id: 'pro', name: 'Pro', price: 9, currency: 'USD', billingCycle: 'monthly', maxDomains: 5, maxLinks: 5_000, maxTags: 100 },
  {
    id: 'business',
    name: 'Business',
    price: 29,
    currency: 'USD',
    billingCycle: 'monthly',
    maxDomains: 25,
    maxLinks: 50_000,
    maxTags: 1_000,
  },
];

/**
 * The catalogue of a service that takes no payments (billing off) when configuration names none: one plan,
 * no limits. An operator limits it with DEFAULT_MAX_*, or an account with `account:set-limits`.
 */
export const SELF_HOSTED_PLANS: readonly Plan[] = [
  {
    id: 'default',
    name: 'Default',
    price: 0,
    currency: 'USD',
    billingCycle: 'monthly',
    maxDomains: UNLIMITED,
    maxLinks: UNLIMITED,
    maxTags: UNLIMITED,
  },
];

/** Limits of one account that differ from its plan's, each null where the plan's holds. */
export type CustomLimits = Record<QuotaResource, number | null>;

export const NO_CUSTOM_LIMITS: CustomLimits = { links: null, domains: null, tags: null };

/** The catalogue with the free plan's limits replaced where `limits` gives one (DEFAULT_MAX_*). */
export function withFreePlanLimits(plans: readonly Plan[], limits: CustomLimits): Plan[] {
  return plans.map((plan) =>
    plan.price === 0
      ? {
          ...plan,
          maxLinks: limits.links ?? plan.maxLinks,
          maxDomains: limits.domains ?? plan.maxDomains,
          maxTags: limits.tags ?? plan.maxTags,
        }
      : { ...plan },
  );
}

const PLAN_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/**
 * The plans on offer. Exactly one is free (price 0): every account is on it until it pays for another.
 * Construction checks the catalogue, so a bad configuration stops the service at start-up.
 */
export class PlanCatalog {
  private readonly byId: Map<string, Plan>;
  readonly free: Plan;

  constructor(plans: readonly Plan[]) {
    const problems: string[] = [];
    this.byId = new Map();
    for (const plan of plans) {
      if (!PLAN_ID.test(plan.id)) problems.push(`plan id "${plan.id}" must be 1-40 of a-z, 0-9, _ and -`);
      if (this.byId.has(plan.id)) problems.push(`plan id "${plan.id}" appears twice`);
      if (!plan.name?.trim()) problems.push(`plan "${plan.id}" needs a name`);
      if (!(Number.isFinite(plan.price) && plan.price >= 0)) problems.push(`plan "${plan.id}" needs a price of 0 or more`);
      if (!/^[A-Z]{3}$/.test(plan.currency)) problems.push(`plan "${plan.id}" needs a three-letter currency code`);
      if (plan.billingCycle !== 'monthly') problems.push(`plan "${plan.id}" billingCycle must be "monthly"`);
      for (const key of ['maxDomains', 'maxLinks', 'maxTags'] as const) {
        if (!(Number.isInteger(plan[key]) && plan[key] >= 0 && plan[key] <= UNLIMITED))
          problems.push(`plan "${plan.id}" ${key} must be a whole number from 0 to ${UNLIMITED} (unlimited)`);
      }
      this.byId.set(plan.id, { ...plan });
    }
    const free = [...this.byId.values()].filter((p) => p.price === 0);
    if (free.length !== 1) problems.push(`exactly one plan must be free (price 0); found ${free.length}`);
    if (problems.length) throw new Error(`Invalid plan catalogue: ${problems.join('; ')}`);
    this.free = free[0];
  }

  list(): Plan[] {
    return [...this.byId.values()];
  }

  find(id: string): Plan | null {
    return this.byId.get(id) ?? null;
  }

  /** The plan a subscription row names; a plan since removed from the catalogue falls back to free limits. */
  limitsOf(planId: string): Plan {
    return this.byId.get(planId) ?? this.free;
  }

  /** A plan of the catalogue, else a ValidationError on `field` naming the plans there are. */
  known(id: string, field = 'planId'): Plan {
    const plan = this.find(id);
    if (!plan)
      throw ValidationError.field(
        field,
        `unknown plan; one of ${this.list()
          .map((p) => p.id)
          .join(', ')}`,
      );
    return plan;
  }

  /** A plan one can pay for: known and not free, else a ValidationError on `planId`. */
  purchasable(id: string): Plan {
    const plan = this.known(id);
    if (plan.price === 0) throw ValidationError.field('planId', 'the free plan needs no checkout');
    return plan;
  }
}

/** An account's limits: its plan's, each replaced by the operator's custom limit where there is one. */
export function effectiveLimits(plan: Plan, custom: CustomLimits): Record<QuotaResource, number> {
  return { links: custom.links ?? plan.maxLinks, domains: custom.domains ?? plan.maxDomains, tags: custom.tags ?? plan.maxTags };
}
