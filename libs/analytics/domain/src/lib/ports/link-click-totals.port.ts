/** Each link's total of visits (kept by the links context, reached through a bridge). */
export abstract class LinkClickTotals {
  abstract addVisits(visitsByLink: Map<string, number>): Promise<void>;
}
