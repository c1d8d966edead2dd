import { EraseBillingAccountUseCase } from '@lnk/billing/domain';
import { DomainRepository } from '@lnk/domains/domain';
import { AccountDataEraser, AfterAccountDeleted } from '@lnk/identity/domain';
import { LinkRepository, TagRepository } from '@lnk/links/domain';
import { StatsRepository } from '@lnk/analytics/domain';
import { WebhookRepository } from '@lnk/webhooks/domain';

/**
 * Deleting an account erases what every other context holds for it, inside the deletion's transaction;
 * billing hands back its cancellation at the payment provider, which identity runs after the commit.
 */
export class AccountDataEraserViaOtherContexts extends AccountDataEraser {
  constructor(
    private readonly links: LinkRepository,
    private readonly tags: TagRepository,
    private readonly domains: DomainRepository,
    private readonly stats: StatsRepository,
    private readonly billing: EraseBillingAccountUseCase,
    private readonly webhooks: WebhookRepository | null = null,
  ) {
    super();
  }

  async eraseAccountData(userId: string): Promise<AfterAccountDeleted[]> {
    await this.webhooks?.deleteAllOfOwner(userId);
    await this.links.deleteAllOfOwner(userId);
    await this.tags.deleteAllOfOwner(userId);
    await this.domains.deleteAllOfOwner(userId);
    await this.stats.deleteAllOfOwner(userId);
    return [await this.billing.execute(userId)];
  }
}
