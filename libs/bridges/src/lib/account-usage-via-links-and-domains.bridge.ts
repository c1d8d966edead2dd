import { AccountUsage } from '@lnk/billing/domain';
import { DomainRepository } from '@lnk/domains/domain';
import { LinkRepository, TagRepository } from '@lnk/links/domain';
import { QuotaResource } from '@lnk/shared/kernel';

/** Billing's account limits count what the links and domains contexts hold for the account. */
export class AccountUsageViaLinksAndDomains extends AccountUsage {
  constructor(
    private readonly links: LinkRepository,
    private readonly tags: TagRepository,
    private readonly domains: DomainRepository,
  ) {
    super();
  }

  async usageOf(ownerId: string): Promise<Record<QuotaResource, number>> {
    const [links, tags, domains] = await Promise.all([
      this.links.countOfOwner(ownerId),
      this.tags.countOfOwner(ownerId),
      this.domains.countOfOwner(ownerId),
    ]);
    return { links, tags, domains };
  }
}
