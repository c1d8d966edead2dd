export interface ResourceUsage {
  used: number;
  limit: number;
}

export interface AccountLimits {
  domains: ResourceUsage;
  links: ResourceUsage;
  tags: ResourceUsage;
}

/** An account's plan limits and usage, shown with a password sign-in (billing answers, through a bridge). */
export abstract class AccountLimitsReader {
  abstract limitsOf(userId: string): Promise<AccountLimits>;
}
