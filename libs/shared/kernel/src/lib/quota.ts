import { QuotaExceededError } from './errors';

/**
 * The limit that means "no limit": PostgreSQL's largest integer. A number, not null, so every answer
 * keeps `limit` a JSON number (spec 2.7, 2.8) and `used < limit` needs no special case anywhere.
 */
export const UNLIMITED = 2_147_483_647;

/** The resources an account's plan limits. */
export type QuotaResource = 'links' | 'domains' | 'tags';

/** How many of a resource an account may hold (its plan decides; billing answers through a bridge). */
export abstract class QuotaPolicy {
  abstract limitFor(ownerId: string, resource: QuotaResource): Promise<number>;
}

/** The quota rule, wherever usage is counted: an owner holding `used` of a resource may add one more only below the limit. */
export function checkRoomFor(resource: string, used: number, limit: number): void {
  if (used >= limit) throw new QuotaExceededError(resource, used, limit);
}
