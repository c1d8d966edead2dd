/** The resources an account's plan limits. */
export type QuotaResource = 'links' | 'domains' | 'tags';

/** How many of a resource an account may hold (its plan decides; billing answers through a bridge). */
export abstract class QuotaPolicy {
  abstract limitFor(ownerId: string, resource: QuotaResource): Promise<number>;
}
