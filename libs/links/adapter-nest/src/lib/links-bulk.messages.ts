import { SKIP_REASONS, SkipReason } from '@lnk/links/domain';

/**
 * The message of an import or a bulk creation (issue 28): `whenAll` when nothing was skipped, otherwise
 * what was created and what was skipped, by reason: "96 created, 904 skipped: quota", or with several
 * reasons "10 created, 4 skipped: 3 invalid, 1 duplicate_slug".
 */
export function creationMessage(created: number, skippedByReason: Record<SkipReason, number>, whenAll: string): string {
  const reasons = SKIP_REASONS.filter((reason) => skippedByReason[reason] > 0);
  if (!reasons.length) return whenAll;
  const skipped = reasons.reduce((sum, reason) => sum + skippedByReason[reason], 0);
  const why = reasons.length === 1 ? reasons[0] : reasons.map((reason) => `${skippedByReason[reason]} ${reason}`).join(', ');
  return `${created} created, ${skipped} skipped: ${why}`;
}

/** The skipped items of a bulk creation, by reason. */
export function skipsByReason(results: readonly ({ reason: SkipReason } | object)[]): Record<SkipReason, number> {
  const counts: Record<SkipReason, number> = { invalid: 0, duplicate_slug: 0, quota: 0 };
  for (const result of results) if ('reason' in result) counts[result.reason]++;
  return counts;
}
