import type { PersistenceModule } from '@lnk/shared/database';
import { Webhooks1764330000000 } from './migrations/1764330000000-webhooks';
import { WebhookEventBatches1764360000000 } from './migrations/1764360000000-webhook-event-batches';
import { WebhooksUsageCounter1764380000000 } from './migrations/1764380000000-webhooks-usage-counter';
import { WebhookFairClaims1764427000000 } from './migrations/1764427000000-webhook-fair-claims';

export const webhooksPersistence: PersistenceModule = {
  migrations: [Webhooks1764330000000, WebhookEventBatches1764360000000, WebhooksUsageCounter1764380000000, WebhookFairClaims1764427000000],
};
