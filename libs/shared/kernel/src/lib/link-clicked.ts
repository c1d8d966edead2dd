/**
 * One answered redirect or password attempt: the event links publish and statistics count. It is the
 * published language between the two contexts, so it lives here rather than in either of them.
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
}
