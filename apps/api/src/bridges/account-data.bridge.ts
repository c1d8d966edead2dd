import { AccountDataEraser, AccountLimits, AccountUsageReader } from '@lnk/identity/domain';
import type { QuotaResource } from '@lnk/shared/kernel';

/** Every limit of an account at once (billing's plan). */
export interface AccountQuota {
  limitsOf(userId: string): Promise<Record<QuotaResource, number>>;
}

/** What one context reports about an account: how many of a resource it holds, and how to erase them. */
export interface ContextAccountData {
  resource?: keyof AccountLimits;
  count?(userId: string): Promise<number>;
  erase(userId: string): Promise<void>;
}

/**
 * Identity's view of the other contexts: their counts for the account limits, and their erasure when an
 * account is deleted. Each context registers here as it lands; a resource no context holds yet counts 0.
 */
export class AccountDataBridge implements AccountDataEraser, AccountUsageReader {
  constructor(
    private readonly contexts: ContextAccountData[],
    private readonly quota: AccountQuota,
  ) {}

  async eraseAccountData(userId: string): Promise<void> {
    for (const context of this.contexts) await context.erase(userId);
  }

  async limitsOf(userId: string): Promise<AccountLimits> {
    const used = async (resource: keyof AccountLimits) => {
      const context = this.contexts.find((c) => c.resource === resource && c.count);
      return context?.count ? context.count(userId) : 0;
    };
    const [limits, domains, links, tags] = await Promise.all([this.quota.limitsOf(userId), used('domains'), used('links'), used('tags')]);
    return { domains: { used: domains, limit: limits.domains }, links: { used: links, limit: limits.links }, tags: { used: tags, limit: limits.tags } };
  }
}
