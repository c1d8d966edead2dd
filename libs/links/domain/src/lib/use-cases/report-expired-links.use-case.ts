import { ExpiringLinks, LinkLifecycleEvents } from '../ports/link-lifecycle-events.port';

/** Links told of per statement; more expiring in one window are taken in further rounds. */
const BATCH = 1_000;

/**
 * Tells of the links whose expiresAt passed in (after, upTo], for owners who want to hear of it. Run
 * periodically by every instance's worker over overlapping windows: the events' ids are derived from the
 * link and its expiry, so each is recorded once. Answers how many links were told of.
 */
export class ReportExpiredLinksUseCase {
  constructor(
    private readonly links: ExpiringLinks,
    private readonly events: LinkLifecycleEvents,
  ) {}

  async execute(after: Date, upTo: Date): Promise<number> {
    const owners = await this.events.ownersWantingExpiries();
    if (owners.length === 0) return 0;
    let told = 0;
    let from = after;
    for (;;) {
      const expired = await this.links.expiredBetween(from, upTo, owners, BATCH);
      if (expired.length) await this.events.expired(expired);
      told += expired.length;
      if (expired.length < BATCH) return told;
      // Links sharing the last expiry instant are told again in the next round (recorded once all the same);
      // a round that cannot move on (more than a batch expiring in one millisecond) ends the run.
      const next = expired[expired.length - 1].expiresAt.getTime() - 1;
      if (next <= from.getTime()) return told;
      from = new Date(next);
    }
  }
}
