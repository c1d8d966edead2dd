/**
 * The visit counters of links with a visit limit (maxVisits), exact however many instances answer the
 * link: each counted visit takes one in the database, atomically. Only such links pay the round trip.
 */
export abstract class VisitLimits {
  /** Takes one of the link's visits: true when one was left (now used), false when all are used (or the limit is gone). */
  abstract claim(linkId: string): Promise<boolean>;
  /** Whether the link has visits left, taking none (a HEAD, a bot: not counted visits). */
  abstract hasLeft(linkId: string): Promise<boolean>;
}
