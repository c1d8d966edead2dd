/** What the API sends for "no limit" (the largest 32-bit integer). */
export const UNLIMITED = 2147483647;

export interface Usage {
  used: number;
  limit: number;
}

/** A quota for a bar: how full (0–100, for the bar), whether it is reached, and in words. */
export function usageOf({ used, limit }: Usage): { unlimited: boolean; percent: number; full: boolean; text: string } {
  if (limit >= UNLIMITED) return { unlimited: true, percent: 0, full: false, text: `${used.toLocaleString('en')} (no limit)` };
  const percent = limit <= 0 ? 100 : Math.min(100, Math.round((used / limit) * 100));
  return { unlimited: false, percent, full: used >= limit, text: `${used.toLocaleString('en')} of ${limit.toLocaleString('en')}` };
}

/** A plan's limit in words, with what it counts ("1 domain", "5,000 links", "Unlimited tags"). */
export function limitText(limit: number, one: string, many: string): string {
  if (limit >= UNLIMITED) return `Unlimited ${many}`;
  return `${limit.toLocaleString('en')} ${limit === 1 ? one : many}`;
}

/** A price in the currency's major unit (as the API gives it), per cycle. */
export function priceText(price: number, currency: string, billingCycle: string): string {
  if (price === 0) return 'Free';
  let money: string;
  try {
    money = new Intl.NumberFormat('en', { style: 'currency', currency }).format(price);
  } catch {
    money = `${price} ${currency}`;
  }
  return `${money} ${billingCycle === 'yearly' ? 'a year' : billingCycle === 'monthly' ? 'a month' : billingCycle}`;
}

/** Query parameter the checkout's successUrl and cancelUrl carry back to the plan page. */
export const CHECKOUT_PARAM = 'checkout';

/**
 * Where the payment page sends the browser back to: the plan page with the session (the provider puts
 * it in place of {CHECKOUT_SESSION_ID}) or with "cancelled".
 */
export function checkoutUrls(pageUrl: string): { successUrl: string; cancelUrl: string } {
  const base = new URL(pageUrl);
  base.search = '';
  base.hash = '';
  return { successUrl: `${base.href}?${CHECKOUT_PARAM}={CHECKOUT_SESSION_ID}`, cancelUrl: `${base.href}?${CHECKOUT_PARAM}=cancelled` };
}

/** What the address says about a checkout coming back: none, cancelled, or a session to verify. */
export function checkoutReturn(search: string): { kind: 'none' } | { kind: 'cancelled' } | { kind: 'paid'; sessionId: string } {
  const value = new URLSearchParams(search).get(CHECKOUT_PARAM);
  if (!value) return { kind: 'none' };
  if (value === 'cancelled') return { kind: 'cancelled' };
  // The session id goes in a JSON body; anything too long or odd is not one the provider made.
  if (value.length > 255 || !/^[\w-]+$/.test(value)) return { kind: 'none' };
  return { kind: 'paid', sessionId: value };
}
