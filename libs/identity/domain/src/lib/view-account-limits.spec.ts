import { Principal } from './model/tokens';
import { AccountLimits, AccountLimitsReader } from './ports/account-limits-reader';
import { ViewAccountLimitsUseCase } from './use-cases/view-account-limits.use-case';

describe("ViewAccountLimitsUseCase: the signed-in account's limits, never another's", () => {
  const limitsOf: Record<string, AccountLimits> = {
    u1: { domains: { used: 0, limit: 1 }, links: { used: 2, limit: 100 }, tags: { used: 0, limit: 10 } },
    u2: { domains: { used: 3, limit: 5 }, links: { used: 40, limit: 1000 }, tags: { used: 7, limit: 50 } },
  };
  const reader: AccountLimitsReader = { limitsOf: async (userId) => limitsOf[userId] as AccountLimits };
  const principal = (userId: string): Principal => ({
    userId,
    scopes: ['user:read'],
    via: 'oauth',
    tokenId: 't1',
    clientId: 'c1',
    grantExpiresAt: null,
    authTime: null,
  });

  it("answers the limits and usage of the principal's own account", async () => {
    const view = new ViewAccountLimitsUseCase(reader);
    await expect(view.execute(principal('u1'))).resolves.toEqual(limitsOf['u1']);
    await expect(view.execute(principal('u2'))).resolves.toEqual(limitsOf['u2']);
  });
});
