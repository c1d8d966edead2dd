import { Page, PageRequest } from '@lnk/shared/kernel';
import { Webhook } from '../model/webhook.entity';

export abstract class WebhookRepository {
  /** Stores it if the owner has fewer than `limit` webhooks (else QuotaExceededError), atomically under concurrent calls. */
  abstract insertWithinLimit(webhook: Webhook, limit: number): Promise<void>;
  abstract findOfOwner(ownerId: string, id: string): Promise<Webhook | null>;
  /** Newest first. */
  abstract listOfOwner(ownerId: string, page: PageRequest): Promise<Page<Webhook>>;
  /**
   * Saves a changed webhook. With `unchangedSince` (the updatedAt it was read with), only if no other
   * write came since, checked by the write itself: false, and nothing saved, when one did. Every write
   * of a webhook moves its updatedAt on by at least a millisecond.
   */
  abstract update(webhook: Webhook, unchangedSince?: Date): Promise<boolean>;
  /** The webhook and its deliveries. */
  abstract deleteOfOwner(ownerId: string, id: string): Promise<boolean>;
  abstract deleteAllOfOwner(ownerId: string): Promise<void>;
}
