import type { PersistenceModule } from '@lnk/shared/database';
import { LinksAndTags1763800300000 } from './migrations/1763800300000-links-and-tags';
import { LinkClickTotals1764000200000 } from './migrations/1764000200000-link-click-totals';

export const linksPersistence: PersistenceModule = {
  migrations: [LinksAndTags1763800300000, LinkClickTotals1764000200000],
};
