/**
 * Erases what other contexts keep for a user (links, domains, tags, statistics) inside the account
 * deletion's transaction. The app binds it to those contexts' use cases.
 */
export abstract class AccountDataEraser {
  abstract eraseAccountData(userId: string): Promise<void>;
}

export interface ResourceUsage {
  used: number;
  limit: number;
}

export interface AccountLimits {
  domains: ResourceUsage;
  links: ResourceUsage;
  tags: ResourceUsage;
}

/** How much of their plan's quotas a user has used (counted by the contexts that own the data). */
export abstract class AccountUsageReader {
  abstract limitsOf(userId: string): Promise<AccountLimits>;
}
