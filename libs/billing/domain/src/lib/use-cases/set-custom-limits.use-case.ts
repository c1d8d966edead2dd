import { Clock, QuotaResource, UNLIMITED, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { CustomLimits, NO_CUSTOM_LIMITS } from '../model/plan';
import { AccountQuotaRepository } from '../ports/account-quota.repository';
import { SubscriptionRepository } from '../ports/subscription.repository';

/** A change of custom limits: a number (UNLIMITED for none), null for the plan's again; a resource left out keeps its own. */
export type CustomLimitsChange = Partial<CustomLimits>;

/**
 * The operator gives one account limits of its own (`account:set-limits`), above or below its plan's;
 * they outlive plan changes until cleared. Usage over a lowered limit stays: the account just cannot create more.
 */
export class SetCustomLimitsUseCase {
  constructor(
    private readonly quotas: AccountQuotaRepository,
    private readonly subscriptions: SubscriptionRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** `clear`: every custom limit goes first, then `change` applies. Answers the custom limits now. */
  async execute(userId: string, change: CustomLimitsChange, clear = false): Promise<CustomLimits> {
    const bad = Object.entries(change).filter(
      ([, value]) => value !== undefined && value !== null && !(Number.isInteger(value) && value >= 0 && value <= UNLIMITED),
    );
    if (bad.length)
      throw new ValidationError(bad.map(([name]) => ({ name, error: `must be a whole number from 0 to ${UNLIMITED} (unlimited)` })));
    return this.uow.run(async () => {
      // Two operators changing different limits of one account at once both keep theirs.
      await this.subscriptions.lockOwner(userId);
      const custom = { ...(clear ? NO_CUSTOM_LIMITS : (await this.quotas.quotaOf(userId)).custom) };
      for (const resource of Object.keys(change) as QuotaResource[]) {
        const value = change[resource];
        if (value !== undefined) custom[resource] = value;
      }
      await this.quotas.saveCustomLimits(userId, custom, this.clock.now());
      return custom;
    });
  }
}
