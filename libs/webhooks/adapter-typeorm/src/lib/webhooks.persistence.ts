import type { PersistenceModule } from '@lnk/shared/database';
import { Webhooks1764330000000 } from './migrations/1764330000000-webhooks';

export const webhooksPersistence: PersistenceModule = { migrations: [Webhooks1764330000000] };
