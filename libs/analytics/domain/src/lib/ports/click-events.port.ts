import { ClickTrigger } from '../model/click-to-count';

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

/** What counted visits that differ only in their moment share: the link and the visit's derived dimensions. */
export type ClickKind = Omit<ClickEvent, 'at'>;

/**
 * Counted visits of one kind: the kind once, their moments (ms since the epoch) in order of arrival. The
 * click buffer holds events so (a number per click, not an object), and a hot link's clicks are one series.
 */
export interface ClickSeries {
  kind: ClickKind;
  ats: number[];
}

/**
 * Subscribers to single clicks. `wants` is asked for every counted visit on the redirect's thread and
 * must answer from memory; `record` runs inside the click write's unit of work, so the clicks' events
 * are stored with their counts, or neither is.
 */
export abstract class ClickEvents {
  abstract wants(ownerId: string): boolean;
  /** Every event held, as series: one kind may come in more than one series (after a write failed). */
  abstract record(series: ClickSeries[]): Promise<void>;
}
