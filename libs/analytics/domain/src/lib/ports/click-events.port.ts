import { ClickTrigger } from '@lnk/shared/kernel';

/** One counted visit as told to subscribers (webhooks): the link, the time and the visit's derived dimensions, never its address. */
export interface ClickEvent {
  linkId: string;
  ownerId: string;
  domainId: string | null;
  at: Date;
  trigger: ClickTrigger;
  /** The Referer's host, or `(direct)`. */
  referrer: string;
  country: string;
  device: string;
  browser: string;
  os: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
}

/**
 * Subscribers to single clicks. `wants` is asked for every counted visit on the redirect's thread and
 * must answer from memory; `record` runs inside the click write's unit of work, so the clicks' events
 * are stored with their counts, or neither is.
 */
export abstract class ClickEvents {
  abstract wants(ownerId: string): boolean;
  abstract record(clicks: ClickEvent[]): Promise<void>;
}
