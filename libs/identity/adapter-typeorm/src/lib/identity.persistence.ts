import type { PersistenceModule } from '@lnk/shared/database';
import { IdentityAccounts1763800000000 } from './migrations/1763800000000-identity-accounts';
import { IdentityTokens1763800100000 } from './migrations/1763800100000-identity-tokens';
import { FirstPartyClients1763900400000 } from './migrations/1763900400000-first-party-clients';
import { IdentityAddressOwnership1763900200000 } from './migrations/1763900200000-identity-address-ownership';
import { IdentityEmailChangeStored1764402700000 } from './migrations/1764402700000-identity-email-change-stored';
import { ReauthenticationAndTotpSteps1763900300000 } from './migrations/1763900300000-reauthentication-and-totp-steps';
import { DashboardClient1764500000000 } from './migrations/1764500000000-dashboard-client';

/** What the identity context adds to the application's DataSource. */
export const identityPersistence: PersistenceModule = {
  migrations: [
    IdentityAccounts1763800000000,
    IdentityTokens1763800100000,
    IdentityAddressOwnership1763900200000,
    ReauthenticationAndTotpSteps1763900300000,
    FirstPartyClients1763900400000,
    IdentityEmailChangeStored1764402700000,
    DashboardClient1764500000000,
  ],
};
