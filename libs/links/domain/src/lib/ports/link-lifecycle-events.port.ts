/** A link that reached the end of its life (its expiresAt passed, or its last allowed visit was taken). */
export interface EndedLink {
  id: string;
  ownerId: string;
  domainId: string | null;
  slug: string;
}

export interface ExpiredLink extends EndedLink {
  expiresAt: Date;
}

/**
 * Told when links stop answering on their own: `link.expired` (found by a periodic scan) and
 * `link.limit_reached` (told by the one visit that took the last allowed one). The webhooks context
 * implements it through a bridge; links knows nothing of webhooks.
 */
export abstract class LinkLifecycleEvents {
  /** The owners who want `link.expired` events: the scan looks at their links only (none: no scan at all). */
  abstract ownersWantingExpiries(): Promise<string[]>;
  /** Several instances may tell of the same expiry: each is recorded once (its event id is derived from the link and its expiresAt). */
  abstract expired(links: ExpiredLink[]): Promise<void>;
  abstract limitReached(link: EndedLink, maxVisits: number, at: Date): Promise<void>;
}

/** The links whose expiresAt falls in (after, upTo], of these owners, oldest expiry first, at most `limit`. */
export abstract class ExpiringLinks {
  abstract expiredBetween(after: Date, upTo: Date, ownerIds: string[], limit: number): Promise<ExpiredLink[]>;
}
