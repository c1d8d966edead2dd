export type VisitClaim = 'none' | 'taken' | 'last';

/**
 * The visit counters of links with a visit limit (maxVisits), exact however many instances answer the
 * link: each counted visit takes one in the database, atomically. Only such links pay the round trip.
 */
export abstract class VisitLimits {
  /**
   * Takes one of the link's visits: `taken` when one was left (now used), `last` when it was the last one
   * (the limit is reached with this visit: one taker only ever sees it), `none` when all are used (or the
   * limit is gone).
   */
  abstract claim(linkId: string): Promise<VisitClaim>;
  /** Whether the link has visits left, taking none (a HEAD, a bot: not counted visits). */
  abstract hasLeft(linkId: string): Promise<boolean>;
}
