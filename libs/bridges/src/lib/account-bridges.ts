import { AccountUsage, EraseBillingAccountUseCase, GetAccountLimitsUseCase } from '@lnk/billing/domain';
import { DomainRepository } from '@lnk/domains/domain';
import { AccountDataEraser, AccountLimits, AccountLimitsReader, AfterAccountDeleted } from '@lnk/identity/domain';
import { LinkRepository, TagRepository } from '@lnk/links/domain';
import { StatsRepository } from '@lnk/analytics/domain';
import { QuotaResource } from '@lnk/shared/kernel';
import { WebhookRepository } from '@lnk/webhooks/domain';

/** Billing's account limits count what the links and domains contexts hold for the account. */
export class UsageOfAccounts extends AccountUsage {
  constructor(
    private readonly links: LinkRepository,
    private readonly tags: TagRepository,
    private readonly domains: DomainRepository,
  ) {
    super();
  }

  async usageOf(ownerId: string): Promise<Record<QuotaResource, number>> {
    const [links, tags, domains] = await Promise.all([this.links.countOfOwner(ownerId), this.tags.countOfOwner(ownerId), this.domains.countOfOwner(ownerId)]);
    return { links, tags, domains };
  }
}

/** A password sign-in answers with billing's account limits. */
export class LimitsOfBilling extends AccountLimitsReader {
  constructor(private readonly limits: GetAccountLimitsUseCase) {
    super();
  }

  limitsOf(userId: string): Promise<AccountLimits> {
    return this.limits.execute(userId);
  }
}

/**
 * Deleting an account erases what every other context holds for it, inside the deletion's transaction;
 * billing hands back its cancellation at the payment provider, which identity runs after the commit.
 */
export class AccountDataOfContexts extends AccountDataEraser {
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
