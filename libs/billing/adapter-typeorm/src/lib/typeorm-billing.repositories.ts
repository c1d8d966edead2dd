import { DataSource } from 'typeorm';
import {
  AccountQuota,
  AccountQuotaRepository,
  CheckoutRecord,
  CheckoutRepository,
  CustomLimits,
  Subscription,
  SubscriptionProps,
  SubscriptionRepository,
  SUBSCRIPTION_STATUSES,
} from '@lnk/billing/domain';
import {
  firstOf,
  int,
  lockKey,
  nullable,
  oneOf,
  PersistenceModule,
  prepared,
  PreparedStatement,
  Row,
  sql,
  text,
  textOrNull,
  timestamp,
  timestampOrNull,
} from '@lnk/shared/database';
import { BillingSubscriptions1763800500000 } from './migrations/1763800500000-billing-subscriptions';
import { BillingCustomLimits1764390500000 } from './migrations/1764390500000-billing-custom-limits';

const subscriptionStatus = oneOf(SUBSCRIPTION_STATUSES);
const subscriptionProps = (r: Row): SubscriptionProps => ({
  id: text(r, 'id'),
  userId: text(r, 'user_id'),
  planId: text(r, 'plan_id'),
  status: subscriptionStatus(r, 'status'),
  startDate: timestamp(r, 'start_date'),
  endedAt: timestampOrNull(r, 'ended_at'),
  checkoutSessionId: textOrNull(r, 'checkout_session_id'),
  providerSubscriptionId: textOrNull(r, 'provider_subscription_id'),
  updatedAt: timestamp(r, 'updated_at'),
});
const toSubscription = (r: Row) => new Subscription(subscriptionProps(r));

const checkoutRecord = (r: Row): CheckoutRecord => ({
  sessionId: text(r, 'session_id'),
  userId: text(r, 'user_id'),
  planId: text(r, 'plan_id'),
  createdAt: timestamp(r, 'created_at'),
  expiresAt: timestamp(r, 'expires_at'),
});

/** The latest subscription matching `where`: a statement of fixed text each, prepared (a plan lookup precedes every creation). */
const latestSubscription = (where: string) =>
  prepared(`SELECT id, user_id, plan_id, status, start_date, ended_at, checkout_session_id, provider_subscription_id, updated_at
    FROM billing_subscriptions WHERE ${where} ORDER BY start_date DESC, id DESC LIMIT 1`);
const CURRENT = latestSubscription(`user_id = $1 AND status <> 'canceled'`);
const BY_CHECKOUT_SESSION = latestSubscription('checkout_session_id = $1');
const BY_PROVIDER_SUBSCRIPTION = latestSubscription('provider_subscription_id = $1');

export const billingPersistence: PersistenceModule = {
  migrations: [BillingSubscriptions1763800500000, BillingCustomLimits1764390500000],
};

export class TypeormSubscriptionRepository extends SubscriptionRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private async one(statement: PreparedStatement, key: string): Promise<Subscription | null> {
    return firstOf(await sql(this.dataSource, statement, [key]), toSubscription);
  }

  lockOwner(userId: string): Promise<void> {
    return lockKey(this.dataSource, `billing:${userId}`);
  }

  findCurrent(userId: string): Promise<Subscription | null> {
    return this.one(CURRENT, userId);
  }

  findByCheckoutSession(checkoutSessionId: string): Promise<Subscription | null> {
    return this.one(BY_CHECKOUT_SESSION, checkoutSessionId);
  }

  findByProviderSubscription(providerSubscriptionId: string): Promise<Subscription | null> {
    return this.one(BY_PROVIDER_SUBSCRIPTION, providerSubscriptionId);
  }

  async insert(subscription: Subscription): Promise<void> {
    const p = subscription.toProps();
    await sql(
      this.dataSource,
      `INSERT INTO billing_subscriptions (id, user_id, plan_id, status, start_date, ended_at, checkout_session_id, provider_subscription_id,
        updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [p.id, p.userId, p.planId, p.status, p.startDate, p.endedAt, p.checkoutSessionId, p.providerSubscriptionId, p.updatedAt],
    );
  }

  async save(subscription: Subscription): Promise<void> {
    const p = subscription.toProps();
    await sql(
      this.dataSource,
      'UPDATE billing_subscriptions SET status = $2, ended_at = $3, provider_subscription_id = $4, updated_at = $5 WHERE id = $1',
      [p.id, p.status, p.endedAt, p.providerSubscriptionId, p.updatedAt],
    );
  }

  async deleteAllOfOwner(userId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM billing_subscriptions WHERE user_id = $1', [userId]);
  }
}

export class TypeormCheckoutRepository extends CheckoutRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insert(record: CheckoutRecord): Promise<void> {
    await sql(
      this.dataSource,
      'INSERT INTO billing_checkouts (session_id, user_id, plan_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [record.sessionId, record.userId, record.planId, record.createdAt, record.expiresAt],
    );
  }

  async find(sessionId: string): Promise<CheckoutRecord | null> {
    return firstOf(await sql(this.dataSource, 'SELECT * FROM billing_checkouts WHERE session_id = $1', [sessionId]), checkoutRecord);
  }

  async deleteAllOfOwner(userId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM billing_checkouts WHERE user_id = $1', [userId]);
  }
}

const intOrNull = nullable(int);
const accountQuota = (r: Row): AccountQuota => ({
  planId: textOrNull(r, 'plan_id'),
  custom: { links: intOrNull(r, 'max_links'), domains: intOrNull(r, 'max_domains'), tags: intOrNull(r, 'max_tags') },
});

/** The current plan and the custom limits in one round trip, prepared: it precedes every creation. */
const QUOTA_OF = prepared(`
  SELECT (SELECT plan_id FROM billing_subscriptions WHERE user_id = $1 AND status <> 'canceled' ORDER BY start_date DESC, id DESC LIMIT 1)
    AS plan_id,
         l.max_links, l.max_domains, l.max_tags
    FROM (SELECT 1) AS one LEFT JOIN billing_account_limits l ON l.user_id = $1`);

export class TypeormAccountQuotaRepository extends AccountQuotaRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async quotaOf(userId: string): Promise<AccountQuota> {
    // Always one row (FROM a one-row table): no subscription yet or no custom limits read as nulls.
    const { rows } = await sql(this.dataSource, QUOTA_OF, [userId]);
    return accountQuota(rows[0]);
  }

  async saveCustomLimits(userId: string, custom: CustomLimits, now: Date): Promise<void> {
    if (custom.links === null && custom.domains === null && custom.tags === null) {
      await this.deleteAllOfOwner(userId);
      return;
    }
    await sql(
      this.dataSource,
      `INSERT INTO billing_account_limits (user_id, max_links, max_domains, max_tags, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id) DO UPDATE SET max_links = EXCLUDED.max_links, max_domains = EXCLUDED.max_domains, max_tags = EXCLUDED.max_tags,
         updated_at = EXCLUDED.updated_at`,
      [userId, custom.links, custom.domains, custom.tags, now],
    );
  }

  async deleteAllOfOwner(userId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM billing_account_limits WHERE user_id = $1', [userId]);
  }
}
