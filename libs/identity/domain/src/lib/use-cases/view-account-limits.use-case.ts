import type { Principal } from '../model/tokens';
import { AccountLimits, AccountLimitsReader } from '../ports/account-limits-reader';

/** The signed-in account's limits and usage (GET /user/me/limits): billing's, through the port identity reads them by. */
export class ViewAccountLimitsUseCase {
  constructor(private readonly limits: AccountLimitsReader) {}

  execute(principal: Principal): Promise<AccountLimits> {
    return this.limits.limitsOf(principal.userId);
  }
}
