import type { PersistenceModule } from '@lnk/shared/database';
import { LinksAndTags1763800300000 } from './migrations/1763800300000-links-and-tags';
import { LinkClickTotals1764000200000 } from './migrations/1764000200000-link-click-totals';
import { LinksUsageCounters1764000300000 } from './migrations/1764000300000-links-usage-counters';
import { LinksOwnerSearchIndex1764000310000 } from './migrations/1764000310000-links-owner-search-index';
import { LinksQuotaCheck1764200000000 } from './migrations/1764200000000-links-quota-check';
import { LinkOptions1764230000000 } from './migrations/1764230000000-link-options';
import { LinksUsageStripes1764340000000 } from './migrations/1764340000000-links-usage-stripes';
import { LinksExpiryIndex1764350000000 } from './migrations/1764350000000-links-expiry-index';
import { LinkFavoritesAndSorts1764600000000 } from './migrations/1764600000000-link-favorites-and-sorts';

export const linksPersistence: PersistenceModule = {
  migrations: [
    LinksAndTags1763800300000,
    LinkClickTotals1764000200000,
    LinksUsageCounters1764000300000,
    LinksOwnerSearchIndex1764000310000,
    LinksQuotaCheck1764200000000,
    LinkOptions1764230000000,
    LinksUsageStripes1764340000000,
    LinksExpiryIndex1764350000000,
    LinkFavoritesAndSorts1764600000000,
  ],
};
