/** One answered redirect or password attempt, handed to statistics. */
export interface LinkClicked {
  linkId: string;
  ownerId: string;
  domainId: string | null;
  /** The link's name when it was clicked: its title, or its slug when untitled. */
  linkName: string;
  /** The custom domain's name, or the default short domain's. */
  domainName: string;
  at: Date;
  /** As the visitor sent them (statistics normalise them). */
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  kind: 'visit' | 'passwordPassed' | 'passwordFailed';
}

/** Where clicks go (bridged to statistics in the app); must not wait on anything. */
export abstract class ClickRecorder {
  abstract record(click: LinkClicked): void;
}
