/**
 * One answered redirect or password attempt: the event links publish (ClickRecorder) and statistics count.
 * The publisher owns it; statistics declare what they read of a click (analytics' ClickToCount), and the
 * bridge between the two (libs/bridges) is where the compiler checks that the one is the other.
 */
export interface LinkClicked {
  linkId: string;
  ownerId: string;
  domainId: string | null;
  /** The link's name when it was clicked: its title, or its slug when untitled. */
  linkName: string;
  /** The custom domain's name, or the default short domain's. */
  domainName: string;
  at: Date;
  /** As the visitor sent them (statistics normalise them, `normaliseUtm`, before storing). */
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

export type ClickTrigger = 'link' | 'qr';

/**
 * The query parameter the QR code's short URL carries, so a visit through it counts as a `qr` one. The
 * redirect removes it before passing the query on to the destination.
 */
export const QR_MARKER_PARAM = 'lnk_qr';
