import { EraseBillingAccountUseCase } from '@lnk/billing/domain';
import { DomainRepository } from '@lnk/domains/domain';
import { AccountDataEraser, AfterAccountDeleted } from '@lnk/identity/domain';
import { LinkRepository, TagRepository } from '@lnk/links/domain';
import { StatsRepository } from '@lnk/analytics/domain';
import { WebhookRepository } from '@lnk/webhooks/domain';

/** Where an account's data lives in the other contexts: what its deletion erases. */
export interface AccountDataStores {
  links: LinkRepository;
  tags: TagRepository;
  domains: DomainRepository;
  stats: StatsRepository;
  billing: EraseBillingAccountUseCase;
  webhooks?: WebhookRepository | null;
}

/**
 * Deleting an account erases what every other context holds for it, inside the deletion's transaction;
 * billing hands back its cancellation at the payment provider, which identity runs after the commit.
 */
export class AccountDataEraserViaOtherContexts extends AccountDataEraser {
  private readonly webhooks: WebhookRepository | null;

  constructor(private readonly deps: AccountDataStores) {
    super();
    this.webhooks = deps.webhooks ?? null;
  }

  async eraseAccountData(userId: string): Promise<AfterAccountDeleted[]> {
    await this.webhooks?.deleteAllOfOwner(userId);
    await this.deps.links.deleteAllOfOwner(userId);
    await this.deps.tags.deleteAllOfOwner(userId);
    await this.deps.domains.deleteAllOfOwner(userId);
    await this.deps.stats.deleteAllOfOwner(userId);
    return [await this.deps.billing.execute(userId)];
  }
}
