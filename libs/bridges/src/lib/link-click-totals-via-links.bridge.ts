import { LinkClickTotals } from '@lnk/analytics/domain';
import { LinkRepository } from '@lnk/links/domain';

/** Analytics adds each link's counted visits to the link's click total. */
export class LinkClickTotalsViaLinks extends LinkClickTotals {
  constructor(private readonly links: LinkRepository) {
    super();
  }

  addVisits(visitsByLink: Map<string, number>): Promise<void> {
    return this.links.addClicks(visitsByLink);
  }
}
