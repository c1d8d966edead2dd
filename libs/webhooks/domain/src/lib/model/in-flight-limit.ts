/**
 * How many deliveries to one webhook may be in flight at once, across workers: at most the cap
 * (WEBHOOKS_MAX_IN_FLIGHT), so that one webhook's backlog cannot take every send a worker has; and fewer
 * for a receiver that answers slowly, so that a slow receiver holds few of them for long. An answer slower
 * than the threshold (a 2xx included: it was received, but slowly) halves the webhook's limit, down to 1;
 * each prompt answer raises it by one, back to the cap (additive increase, multiplicative decrease, as
 * TCP's congestion control). `current` null: the cap (never slow, or recovered); the answer is null again
 * once it is back to the cap, so that a webhook that is never slow has nothing stored.
 */
export function nextInFlightLimit(current: number | null, slow: boolean, cap: number): number | null {
  const limit = current === null ? cap : Math.min(current, cap);
  if (slow) return Math.max(1, Math.floor(limit / 2));
  if (current === null || limit + 1 >= cap) return null;
  return limit + 1;
}
