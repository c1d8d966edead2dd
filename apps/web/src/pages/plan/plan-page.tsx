import { useEffect, useId, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getAccountLimits, getSubscription, listPlans, type Plan, startCheckout, verifyCheckout } from '@lnk/sdk';
import { useLocation, useSearch } from 'wouter';
import '../sections.css';
import { client } from '../../api/client';
import { answer, plainMessage } from '../../api/errors';
import { Page } from '../../components/page';
import { ErrorState, Loading } from '../../components/states';
import { checkoutReturn, checkoutUrls, limitText, priceText, type Usage, usageOf } from './usage';

const LIMITS = ['limits'] as const;
const SUBSCRIPTION = ['subscription'] as const;
const PLANS = ['plans'] as const;

function QuotaBar({ label, usage }: { label: string; usage: Usage }) {
  const id = useId();
  const shown = usageOf(usage);
  return (
    <div className={`quota${shown.full ? ' quota-full' : ''}`}>
      <div className="quota-label">
        <span id={id}>{label}</span>
        <span>{shown.text}</span>
      </div>
      {!shown.unlimited && <progress aria-labelledby={id} max={100} value={shown.percent} />}
      {shown.full && <p className="field-error">Reached: choose a bigger plan below, or delete some first.</p>}
    </div>
  );
}

function Usages() {
  const limits = useQuery({ queryKey: LIMITS, queryFn: () => answer(getAccountLimits({ client })) });
  if (limits.isPending) return <Loading what="Loading your usage" />;
  if (limits.isError) return <ErrorState error={limits.error} retry={() => void limits.refetch()} />;
  const { links, domains, tags } = limits.data.data;
  return (
    <>
      <QuotaBar label="Links" usage={links} />
      <QuotaBar label="Domains" usage={domains} />
      <QuotaBar label="Tags" usage={tags} />
    </>
  );
}

/** Back from the payment page: the session is checked with the API once, then the address is cleaned. */
function CheckoutReturn() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const back = checkoutReturn(search);
  const verify = useMutation({
    mutationFn: (sessionId: string) => answer(verifyCheckout({ client, body: { sessionId } })),
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: LIMITS }), queryClient.invalidateQueries({ queryKey: SUBSCRIPTION })]),
  });
  const asked = useRef('');
  useEffect(() => {
    if (back.kind === 'paid' && asked.current !== back.sessionId) {
      asked.current = back.sessionId;
      verify.mutate(back.sessionId, { onSuccess: () => navigate('/plan', { replace: true }) });
    }
  }, [back, verify, navigate]);
  if (back.kind === 'cancelled') {
    return (
      <p className="notice" role="status">
        Checkout cancelled: nothing was paid and your plan is unchanged.
      </p>
    );
  }
  if (verify.isPending) return <Loading what="Checking your payment" />;
  if (verify.isError) {
    return (
      <p className="form-error" role="alert">
        Your payment could not be confirmed: {plainMessage(verify.error)}
      </p>
    );
  }
  if (verify.isSuccess) {
    return (
      <p className="notice" role="status">
        Payment received: your {verify.data.data.planId} plan is {verify.data.data.status}.
      </p>
    );
  }
  return null;
}

function Plans({ currentPlanId }: { currentPlanId: string | undefined }) {
  const plans = useQuery({ queryKey: PLANS, queryFn: () => answer(listPlans({ client })), staleTime: 5 * 60_000 });
  const checkout = useMutation({
    mutationFn: (plan: Plan) => answer(startCheckout({ client, body: { planId: plan.id, ...checkoutUrls(window.location.href) } })),
    // The payment page is the provider's (or the sandbox's): a full navigation, and back to this page after.
    onSuccess: (started) => window.location.assign(started.data.url),
  });
  if (plans.isPending) return <Loading what="Loading the plans" />;
  if (plans.isError) return <ErrorState error={plans.error} retry={() => void plans.refetch()} />;
  return (
    <>
      {checkout.error ? (
        <p className="form-error" role="alert">
          {plainMessage(checkout.error)}
        </p>
      ) : null}
      <ul className="plans">
        {plans.data.data.map((plan) => {
          const current = plan.id === currentPlanId;
          return (
            <li key={plan.id} className={`card plan${current ? ' plan-current' : ''}`} aria-current={current ? 'true' : undefined}>
              <h3>{plan.name}</h3>
              <p className="plan-price">{priceText(plan.price, plan.currency, plan.billingCycle)}</p>
              <ul className="plan-limits">
                <li>{limitText(plan.maxLinks, 'link', 'links')}</li>
                <li>{limitText(plan.maxDomains, 'domain', 'domains')}</li>
                <li>{limitText(plan.maxTags, 'tag', 'tags')}</li>
              </ul>
              {current ? (
                <p className="badge">Your plan</p>
              ) : plan.price > 0 ? (
                <button type="button" className="primary" disabled={checkout.isPending} onClick={() => checkout.mutate(plan)}>
                  {checkout.isPending && checkout.variables?.id === plan.id ? 'Opening checkout…' : `Choose ${plan.name}`}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

export function PlanPage() {
  const subscription = useQuery({ queryKey: SUBSCRIPTION, queryFn: () => answer(getSubscription({ client })) });
  const current = subscription.data?.data;
  return (
    <Page title="Plan and usage" intro="What your account holds, what your plan allows, and the plans on offer.">
      <CheckoutReturn />
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Usage</h2>
        <Usages />
      </section>
      <section className="card" aria-labelledby="subscription-title">
        <h2 id="subscription-title">Your plan</h2>
        {subscription.isPending ? (
          <Loading what="Loading your plan" />
        ) : subscription.isError ? (
          <ErrorState error={subscription.error} retry={() => void subscription.refetch()} />
        ) : current ? (
          <dl className="facts">
            <dt>Plan</dt>
            <dd data-testid="current-plan">{current.planName}</dd>
            <dt>Price</dt>
            <dd>{priceText(current.price, current.currency, current.billingCycle)}</dd>
            <dt>State</dt>
            <dd>
              {current.status === 'active'
                ? 'Active'
                : current.status === 'past_due'
                  ? 'Payment overdue: update your payment details with the provider'
                  : 'Cancelled'}
            </dd>
          </dl>
        ) : null}
      </section>
      <section aria-labelledby="plans-title">
        <h2 id="plans-title">Plans</h2>
        <Plans currentPlanId={current?.planId} />
      </section>
    </Page>
  );
}
