/** One answered redirect (or password attempt) to count. */
export interface ClickEvent {
  linkId: string;
  ownerId: string;
  domainId: string | null;
  /** The link's name when it was clicked: its title, or its slug when untitled. */
  linkName: string;
  domainName: string;
  at: Date;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  kind: 'visit' | 'passwordPassed' | 'passwordFailed';
}

/** Counts of one daily rollup row: (UTC date, link, UTM values). */
export interface ClickCounts {
  date: string;
  linkId: string;
  ownerId: string;
  domainId: string | null;
  linkName: string;
  domainName: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  visits: number;
  passwordPassed: number;
  passwordFailed: number;
}

export function rollupKey(e: ClickEvent): string {
  return [e.at.toISOString().slice(0, 10), e.linkId, e.utmSource, e.utmMedium, e.utmCampaign].join('\u0000');
}
