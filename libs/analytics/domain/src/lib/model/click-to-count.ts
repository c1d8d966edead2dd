/** How a visit came: through the short URL itself, or through the link's QR code. */
export type ClickTrigger = 'link' | 'qr';

/**
 * One answered redirect or password attempt, as statistics read it. The links context publishes its
 * clicks as its own event; the bridge that hands them to the click buffer passes them on as they are,
 * so this shape is checked against theirs where the two meet, and no click is copied on the way.
 */
export interface ClickToCount {
  linkId: string;
  ownerId: string;
  domainId: string | null;
  /** The link's name when it was clicked: its title, or its slug when untitled. */
  linkName: string;
  /** The custom domain's name, or the default short domain's. */
  domainName: string;
  at: Date;
  /** As the visitor sent them: normalised (normaliseUtm) before they are counted. */
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  kind: 'visit' | 'passwordPassed' | 'passwordFailed';
  /** Raw: the visit's dimensions (referrer host, country, device, browser, OS) are derived from them and only those are kept. */
  referer: string | undefined;
  userAgent: string | undefined;
  /** The client's address, after the proxy trust (TRUST_PROXY). */
  ip: string;
  trigger: ClickTrigger;
}
