import { GetAccountLimitsUseCase } from '@lnk/billing/domain';
import { AccountLimits, AccountLimitsReader } from '@lnk/identity/domain';

/** A password sign-in answers with billing's account limits. */
export class AccountLimitsReaderViaBilling extends AccountLimitsReader {
  constructor(private readonly limits: GetAccountLimitsUseCase) {
    super();
  }

  limitsOf(userId: string): Promise<AccountLimits> {
    return this.limits.execute(userId);
  }
}
