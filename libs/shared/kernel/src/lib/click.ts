/** How a visit came: through the short URL itself, or through the link's QR code. */
export type ClickTrigger = 'link' | 'qr';

/**
 * One answered redirect or password attempt. Links publish it (their LinkClicked event) and statistics
 * count it (their ClickToCount): one shape both contexts speak, so the bridge between them hands the
 * click on as it is and the redirect's hot path copies nothing.
 */
export interface Click {
  linkId: string;
  ownerId: string;
  domainId: string | null;
  /** The link's name when it was clicked: its title, or its slug when untitled. */
  linkName: string;
  /** The custom domain's name, or the default short domain's. */
  domainName: string;
  at: Date;
  /** As the visitor sent them: statistics normalise them (`normaliseUtm`) before they are counted. */
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  kind: 'visit' | 'passwordPassed' | 'passwordFailed';
  /**
   * What the visit arrived with, raw: statistics derive its dimensions (referrer host, country, device,
   * browser, OS) from them when they count it, and store only those, aggregated. Never stored as they are.
   */
  referer: string | undefined;
  userAgent: string | undefined;
  /** The client's address, after the proxy trust (TRUST_PROXY). */
  ip: string;
  /** `qr` when the visit came through the link's QR code (its short URL carries the QR marker), else `link`. */
  trigger: ClickTrigger;
}
