import { SkipThrottle } from '@nestjs/throttler';
import { Body, Controller, Headers, HttpCode, Param, Req, Res } from '@nestjs/common';
import type { RawBodyRequest } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  GetSandboxCheckoutUseCase,
  GetSubscriptionUseCase,
  InvalidWebhookError,
  ListPlansUseCase,
  PaySandboxCheckoutUseCase,
  ReceivePaymentWebhookUseCase,
  StartCheckoutUseCase,
  VerifyCheckoutUseCase,
} from '@lnk/billing/domain';
import { ValidationError } from '@lnk/shared/kernel';
import { AcceptsForm, type Caller, CurrentPrincipal, list, ok, pageHeaders, Public, Route, string } from '@lnk/shared/http';
import { CheckoutSessionSchema, PlanSchema, SubscriptionSchema, VerifiedSubscriptionSchema, WebhookReceiptSchema } from './billing.schemas';
import { CheckoutRequestDto, VerifyCheckoutRequestDto } from './billing.request.dto';
import { sandboxGonePage, sandboxPaymentPage } from './sandbox.pages';
import { presentCheckoutSession, presentPlan, presentSubscription, presentVerified } from './billing.presenter';

/** Plans and the account's subscription (spec 4.4, 2.8, 2.9). */
@Controller('user')
export class SubscriptionController {
  constructor(
    private readonly listPlans: ListPlansUseCase,
    private readonly getSubscription: GetSubscriptionUseCase,
    private readonly startCheckout: StartCheckoutUseCase,
    private readonly verifyCheckout: VerifyCheckoutUseCase,
  ) {}

  @Route('GET', 'plans', {
    operationId: 'listPlans',
    scope: 'subscription:read',
    answers: list(PlanSchema),
    summary: 'The plans on offer',
    description: 'Each plan with its price and limits.',
  })
  plans() {
    return ok(this.listPlans.execute().map(presentPlan));
  }

  @Route('GET', 'subscription/current', {
    operationId: 'getSubscription',
    scope: 'subscription:read',
    answers: SubscriptionSchema,
    summary: 'Your subscription',
    description: "Your plan, its state and its limits (the operator may have set limits of your own in place of the plan's).",
  })
  async current(@CurrentPrincipal() caller: Caller) {
    const { subscription: s, plan, limits } = await this.getSubscription.execute(caller.userId);
    return ok(presentSubscription(s, plan, limits));
  }

  @Route('POST', 'subscription/checkout', {
    operationId: 'startCheckout',
    scope: 'subscription:read',
    answers: CheckoutSessionSchema,
    idempotent: 'replays',
    summary: 'Start a checkout for a plan',
    description:
      'Answers the URL of the payment page; the browser comes back to successUrl or ' +
      'cancelUrl. 400 BILLING_DISABLED when the service takes no payments (BILLING=off).',
  })
  async checkout(@CurrentPrincipal() caller: Caller, @Body() body: CheckoutRequestDto) {
    const session = await this.startCheckout.execute(caller.userId, body);
    return ok(presentCheckoutSession(session), 'Checkout session created: send the user to its url');
  }

  @Route('POST', 'subscription/verify', {
    operationId: 'verifyCheckout',
    scope: 'subscription:read',
    answers: VerifiedSubscriptionSchema,
    summary: 'Finish a checkout',
    description:
      'Checks a checkout session with the payment provider and activates the plan when it is ' +
      'paid. 400 BILLING_DISABLED when the service takes no payments (BILLING=off).',
  })
  async verify(@CurrentPrincipal() caller: Caller, @Body() body: VerifyCheckoutRequestDto) {
    return ok(presentVerified(await this.verifyCheckout.execute(caller.userId, body.sessionId)), 'Subscription active');
  }
}

/** Stripe's webhook: signed events about checkouts, renewals and cancellations. */
@Public()
@SkipThrottle()
@Controller('billing/stripe')
export class StripeWebhookController {
  constructor(private readonly receiveWebhook: ReceivePaymentWebhookUseCase) {}

  @Route('POST', 'webhook', {
    operationId: 'receiveStripeEvent',
    answers: WebhookReceiptSchema,
    errors: { 400: 'json', 404: 'json' },
    summary: 'Stripe webhook',
    description: "Stripe's signed events (Stripe-Signature header): payments and subscription changes.",
  })
  @HttpCode(200)
  async webhook(@Req() request: RawBodyRequest<FastifyRequest>, @Headers('stripe-signature') signature: string | undefined) {
    // Without Stripe configured the endpoint is not there: 404 NOT_FOUND from the use case's reader.
    let outcome;
    try {
      outcome = await this.receiveWebhook.execute(request.rawBody ?? Buffer.alloc(0), signature);
    } catch (error) {
      if (error instanceof InvalidWebhookError) throw ValidationError.field('stripe-signature', error.message);
      throw error;
    }
    return ok({ received: true, outcome }, 'Webhook received');
  }
}

/** The session a sandbox checkout answered (its url ends with it). */
const SANDBOX_SESSION = {
  type: 'string',
  description: 'The sessionId of a checkout made with the sandbox provider.',
  example: 'cs_sandbox_4f0c2d9a8b7e6d5c4b3a29180f7e6d5c',
};

/**
 * The built-in sandbox provider's payment page: shows the plan and price; submitting its one form pays
 * the session and sends the browser to the success URL. Served only when Stripe is not configured.
 */
@Public()
@AcceptsForm()
@Controller('billing/sandbox')
export class SandboxCheckoutController {
  constructor(
    private readonly getCheckout: GetSandboxCheckoutUseCase,
    private readonly payCheckout: PaySandboxCheckoutUseCase,
  ) {}

  @Route('GET', ':sessionId', {
    operationId: 'getSandboxCheckoutPage',
    params: { sessionId: SANDBOX_SESSION },
    raw: { 'text/html': string },
    errors: { 404: 'html', 410: 'html' },
    summary: 'Sandbox payment page',
    description: 'The payment page of the sandbox provider (no real payment), with BILLING=sandbox.',
  })
  async page(@Param('sessionId') sessionId: string, @Res() reply: FastifyReply) {
    const session = await this.getCheckout.execute(sessionId);
    if (!session) return void reply.code(404).headers(pageHeaders()).send(sandboxGonePage('This checkout session does not exist.'));
    if (session.expired)
      return void reply.code(410).headers(pageHeaders()).send(sandboxGonePage('This checkout session has expired.', session.cancelUrl));
    void reply.code(200).headers(pageHeaders(session.successUrl)).send(sandboxPaymentPage(session));
  }

  @Route('POST', ':sessionId', {
    operationId: 'paySandboxCheckout',
    params: { sessionId: SANDBOX_SESSION },
    answers: null,
    status: 303,
    errors: { 404: 'html', 410: 'html' },
    summary: 'Pay in the sandbox',
    description: 'Marks the sandbox checkout session paid and redirects back to its successUrl.',
  })
  async pay(@Param('sessionId') sessionId: string, @Res() reply: FastifyReply) {
    // Unless BILLING=sandbox there is no sandbox: every session is unknown here. A paid one has started its subscription.
    const payment = await this.payCheckout.execute(sessionId);
    if (payment.outcome === 'unknown')
      return void reply.code(404).headers(pageHeaders()).send(sandboxGonePage('This checkout session does not exist.'));
    if (payment.outcome === 'expired')
      return void reply.code(410).headers(pageHeaders()).send(sandboxGonePage('This checkout session has expired.'));
    const target = payment.session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(sessionId));
    void reply.code(303).header('location', target).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
  }
}
