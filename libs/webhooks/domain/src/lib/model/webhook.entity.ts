import { EntityOf, parseUrl, ValidationError } from '@lnk/shared/kernel';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from './webhook-event';

export const MAX_WEBHOOKS_PER_ACCOUNT = 10;
export const MAX_WEBHOOK_LINK_IDS = 100;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 500;
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface WebhookProps {
  id: string;
  ownerId: string;
  url: string;
  events: WebhookEventType[];
  /** Only events of these links (link.* events); null: every link of the owner. */
  linkIds: string[] | null;
  description: string;
  /** The signing secret, sealed (never stored in plain form: signing needs it back, so it is encrypted, not hashed). */
  sealedSecret: string;
  isActive: boolean;
  /** Why the service turned it off (a run of failed deliveries), shown to the owner; null when the owner did, or it is on. */
  disabledReason: string | null;
  /** Failed delivery attempts since the last success. */
  consecutiveFailures: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookChanges {
  url?: string;
  events?: WebhookEventType[];
  linkIds?: string[] | null;
  description?: string;
  isActive?: boolean;
}

/** An endpoint of the owner's that is told of events, signed with its own secret. */
export class Webhook extends EntityOf<WebhookProps>()(
  'id',
  'ownerId',
  'url',
  'description',
  'sealedSecret',
  'isActive',
  'disabledReason',
  'consecutiveFailures',
  'createdAt',
  'updatedAt',
) {
  get events(): WebhookEventType[] {
    return [...this.props.events];
  }
  get linkIds(): string[] | null {
    return this.props.linkIds ? [...this.props.linkIds] : null;
  }

  /** Turned on again by its owner: the failure run that turned it off is forgotten. */
  change(changes: WebhookChanges, now: Date): void {
    const next = { ...this.props, updatedAt: now };
    if (changes.url !== undefined) next.url = changes.url;
    if (changes.events !== undefined) next.events = [...changes.events];
    if (changes.linkIds !== undefined) next.linkIds = changes.linkIds ? [...changes.linkIds] : null;
    if (changes.description !== undefined) next.description = changes.description;
    if (changes.isActive !== undefined) {
      if (changes.isActive && !this.props.isActive) next.consecutiveFailures = 0;
      next.isActive = changes.isActive;
      next.disabledReason = null;
    }
    this.props = next;
  }

  rotateSecret(sealedSecret: string, now: Date): void {
    this.props = { ...this.props, sealedSecret, updatedAt: now };
  }

  toProps(): WebhookProps {
    return { ...this.props, events: [...this.props.events], linkIds: this.linkIds };
  }
}

/**
 * The destination's form: an absolute https URL (http too when `allowPlainHttp`, for tests and local
 * use), without credentials. Where it points is checked by the DestinationGuard, which resolves it.
 */
export function checkWebhookUrl(value: unknown, allowPlainHttp: boolean): string {
  if (typeof value !== 'string' || !value) throw ValidationError.field('url', 'url is required');
  if (value.length > MAX_WEBHOOK_URL_LENGTH) throw ValidationError.field('url', `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  const url = parseUrl(value);
  if (!url) throw ValidationError.field('url', 'url must be an absolute URL');
  if (url.protocol !== 'https:' && !(allowPlainHttp && url.protocol === 'http:')) {
    throw ValidationError.field('url', allowPlainHttp ? 'url must be an http or https URL' : 'url must be an https URL');
  }
  if (url.username || url.password) throw ValidationError.field('url', 'url must not carry credentials');
  url.hash = '';
  return url.toString();
}

/** A link filter's form, its ids distinct (whose they are is the use case's lookup); null or absent: every link. */
export function checkWebhookLinkIds(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw ValidationError.field('linkIds', 'linkIds must be an array of link ids');
  const ids = [...new Set(value as string[])];
  if (ids.length === 0) throw ValidationError.field('linkIds', 'linkIds must name at least one link, or be null for every link');
  if (ids.length > MAX_WEBHOOK_LINK_IDS) throw ValidationError.field('linkIds', `linkIds must name at most ${MAX_WEBHOOK_LINK_IDS} links`);
  return ids;
}

export function checkWebhookEvents(value: unknown): WebhookEventType[] {
  if (!Array.isArray(value) || value.length === 0)
    throw ValidationError.field('events', `events must list at least one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  const unknown = value.filter((v) => !(WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(v));
  if (unknown.length)
    throw ValidationError.field('events', `unknown event: ${unknown.map(String).join(', ')}; one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  return WEBHOOK_EVENT_TYPES.filter((t) => value.includes(t));
}

export function checkWebhookDescription(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw ValidationError.field('description', 'description must be a string');
  if (value.length > MAX_WEBHOOK_DESCRIPTION_LENGTH)
    throw ValidationError.field('description', `description must be at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`);
  return value;
}
