import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  CheckoutSession,
  CheckoutState,
  NewCheckout,
  PaymentGateway,
  SandboxCheckouts,
  SandboxPayment,
  SandboxSessionView,
} from '@lnk/billing/domain';
import { Clock } from '@lnk/shared/kernel';
import { decimal, sql, text, timestamp, timestampOrNull } from '@lnk/shared/database';

const SESSION_HOURS = 24;

/**
 * A payment provider for local use and tests: the session's page is served by the app itself and one
 * form submission pays it. Session ids are 128-bit random: the page needs no sign-in, the id is the key.
 */
export class SandboxPaymentGateway extends PaymentGateway implements SandboxCheckouts {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: { pageBaseUrl: string },
  ) {
    super();
  }

  async createCheckout(checkout: NewCheckout): Promise<CheckoutSession> {
    const id = `cs_sandbox_${randomBytes(16).toString('hex')}`;
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
    const { plan } = checkout;
    await sql(
      this.dataSource,
      `INSERT INTO billing_sandbox_sessions (id, user_id, plan_id, plan_name, price, currency, success_url, cancel_url, created_at,
        expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [id, checkout.userId, plan.id, plan.name, plan.price, plan.currency, checkout.successUrl, checkout.cancelUrl, now, expiresAt],
    );
    return { sessionId: id, url: `${this.config.pageBaseUrl}/billing/sandbox/${id}`, expiresAt };
  }

  async checkoutState(sessionId: string): Promise<CheckoutState | null> {
    const session = await this.session(sessionId);
    if (!session) return null;
    return { paid: session.paid, expired: session.expired, providerSubscriptionId: session.providerSubscriptionId };
  }

  async cancelSubscription(): Promise<void> {
    // Sandbox subscriptions never renew: there is nothing to stop.
  }

  async session(sessionId: string): Promise<SandboxSessionView | null> {
    const { rows } = await sql(this.dataSource, 'SELECT * FROM billing_sandbox_sessions WHERE id = $1', [sessionId]);
    const r = rows[0];
    if (!r) return null;
    const expiresAt = timestamp(r, 'expires_at');
    const paid = timestampOrNull(r, 'paid_at') !== null;
    return {
      id: text(r, 'id'),
      planId: text(r, 'plan_id'),
      planName: text(r, 'plan_name'),
      price: decimal(r, 'price'),
      // char(3): padded by PostgreSQL.
      currency: text(r, 'currency').trim(),
      successUrl: text(r, 'success_url'),
      cancelUrl: text(r, 'cancel_url'),
      expiresAt,
      paid,
      expired: !paid && expiresAt.getTime() <= this.clock.now().getTime(),
      providerSubscriptionId: paid ? `sub_sandbox_${sessionId.slice('cs_sandbox_'.length)}` : null,
    };
  }

  /** Pays the session (once; paying again answers already_paid). An expired session cannot be paid. */
  async pay(sessionId: string): Promise<SandboxPayment> {
    const now = this.clock.now();
    const { affected } = await sql(
      this.dataSource,
      'UPDATE billing_sandbox_sessions SET paid_at = $2 WHERE id = $1 AND paid_at IS NULL AND expires_at > $2',
      [sessionId, now],
    );
    const session = await this.session(sessionId);
    if (!session) return { outcome: 'unknown' };
    if (affected > 0) return { outcome: 'paid', session };
    return session.paid ? { outcome: 'already_paid', session } : { outcome: 'expired' };
  }

  /** The account's sessions: the sandbox keeps them in the service's database. */
  async forgetOwner(userId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM billing_sandbox_sessions WHERE user_id = $1', [userId]);
  }
}
