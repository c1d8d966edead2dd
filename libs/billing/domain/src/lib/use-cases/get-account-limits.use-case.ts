import { QuotaResource } from '@lnk/shared/kernel';
import { AccountUsage } from '../ports/account-usage.port';
import { PlanQuotaPolicy } from '../services/plan-quota-policy';

export interface ResourceUsage {
  used: number;
  limit: number;
}

export type AccountLimits = Record<QuotaResource, ResourceUsage>;

/** An account's plan limits beside how much of each it uses: `GET /user/me/limits` and the password grant's `limits`. */
export class GetAccountLimitsUseCase {
  constructor(
    private readonly quota: PlanQuotaPolicy,
    private readonly usage: AccountUsage,
  ) {}

  async execute(ownerId: string): Promise<AccountLimits> {
    const [limits, used] = await Promise.all([this.quota.limitsOf(ownerId), this.usage.usageOf(ownerId)]);
    return {
      domains: { used: used.domains, limit: limits.domains },
      links: { used: used.links, limit: limits.links },
      tags: { used: used.tags, limit: limits.tags },
    };
  }
}
