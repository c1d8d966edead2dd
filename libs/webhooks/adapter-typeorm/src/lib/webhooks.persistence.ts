import type { PersistenceModule } from '@lnk/shared/database';
import { Webhooks1764330000000 } from './migrations/1764330000000-webhooks';
import { WebhookEventBatches1764360000000 } from './migrations/1764360000000-webhook-event-batches';

export const webhooksPersistence: PersistenceModule = { migrations: [Webhooks1764330000000, WebhookEventBatches1764360000000] };
