import { QuotaExceededError } from '@lnk/shared/kernel';

/**
 * Runs `n` creations at once and answers how many went through: what a quota race test counts. Every
 * refusal must be the quota's (QuotaExceededError); any other failure (a deadlock, say) is thrown.
 */
export async function createdInRace(n: number, create: () => Promise<unknown>): Promise<number> {
  const results = await Promise.allSettled(Array.from({ length: n }, create));
  const other = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof QuotaExceededError));
  if (other) throw other.reason;
  return results.filter((r) => r.status === 'fulfilled').length;
}
