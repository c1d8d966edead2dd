import { Page, PageRequest } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';
import { LinkOptions, LinkTargets, LinkUtm, RedirectType } from '../model/link-options';

/** What answering a short URL needs of a link's options (issue 18); a link without any has none (null). */
export interface RedirectOptions {
  redirectType: RedirectType;
  /** Epoch milliseconds, or null. */
  expiresAt: number | null;
  expiredUrl: string | null;
  maxVisits: number | null;
  utm: LinkUtm | null;
  targets: LinkTargets | null;
}

/** A redirect's view of a link's options: null when the link has none (it is then answered as today, on the hot path). */
export function redirectOptionsOf(o: LinkOptions): RedirectOptions | null {
  if (
    o.redirectType === 302 &&
    o.expiresAt === null &&
    o.expiredUrl === null &&
    o.maxVisits === null &&
    o.utm === null &&
    o.targets === null
  )
    return null;
  return {
    redirectType: o.redirectType,
    expiresAt: o.expiresAt?.getTime() ?? null,
    expiredUrl: o.expiredUrl,
    maxVisits: o.maxVisits,
    utm: o.utm,
    targets: o.targets,
  };
}

/** What answering a short URL needs of a link, and nothing more. */
export interface RedirectTarget {
  id: string;
  ownerId: string;
  domainId: string | null;
  slug: string;
  url: string;
  /** Title, or the slug when untitled: the name statistics keep. */
  name: string;
  status: boolean;
  passwordHash: string | null;
  /** Null or absent: a plain link (the hot path checks this one property). */
  options?: RedirectOptions | null;
}

/**
 * The list's orders: newest first (by id: ids are time-ordered), oldest first, or by title A–Z (lowercased, code point order), ties by id.
 */
export const LINK_SORTS = ['newest', 'oldest', 'title'] as const;
export type LinkSort = (typeof LINK_SORTS)[number];

/** What narrows and orders the owner's list besides its search; left out: every link, newest first. */
export interface LinkListView {
  sort?: LinkSort;
  /** Only the links carrying this tag (a tag of another account's, or none, matches nothing). */
  tagId?: string;
  /** true: only the links marked favourite. */
  favorite?: boolean;
}

/** Where a deleted link answered: its redirect cache entry is evicted. */
export interface DeletedLink {
  id: string;
  domainId: string | null;
  slug: string;
}

export abstract class LinkRepository {
  /**
   * Stores a new link if the owner holds fewer than `limit` links, atomically under concurrent calls
   * (else QuotaExceededError). A slug taken on the same domain is a ValidationError on `slug`.
   */
  abstract insertWithinQuota(link: Link, limit: number): Promise<void>;
  /**
   * Stores new links of one owner in one write (bulk create, import), atomically under concurrent calls
   * and with the same check as insertWithinQuota: if the links it would store take the owner past `limit`,
   * QuotaExceededError and none is stored. A link whose slug is already taken on its domain is not stored
   * and not counted: its id is answered in `taken`. The links' slugs differ from one another's (per domain).
   */
  abstract insertManyWithinQuota(links: Link[], limit: number): Promise<{ taken: string[] }>;
  abstract findOfOwner(ownerId: string, id: string): Promise<Link | null>;
  /** The owner's links among `ids` (another account's or unknown ids are left out), in one read, by id. */
  abstract findManyOfOwner(ownerId: string, ids: string[]): Promise<Link[]>;
  /**
   * In the view's order (newest first by default), narrowed by its tag and favourite filters; `query`
   * matches title, slug or url, case-insensitively, anywhere. A keyset page's position is the last item's
   * id, after its lowercased title when sorted by title.
   */
  abstract listOfOwner(ownerId: string, query: string | undefined, page: PageRequest, view?: LinkListView): Promise<Page<Link>>;
  /** As listOfOwner, only the links expired at `now` (past expiresAt, or visits used up), or only the others. */
  abstract listOfOwnerByExpiry(
    ownerId: string,
    expired: boolean,
    now: Date,
    query: string | undefined,
    page: PageRequest,
    view?: LinkListView,
  ): Promise<Page<Link>>;
  /**
   * Saves a changed link; a slug taken on the same domain is a ValidationError on `slug`. With
   * `unchangedSince` (the updatedAt it was read with), only if no other write came since, checked by the
   * write itself: false, and nothing saved, when one did. Every write of a link moves its updatedAt on,
   * by at least a millisecond, so two writes never leave the same updatedAt.
   */
  abstract update(link: Link, unchangedSince?: Date): Promise<boolean>;
  abstract deleteOfOwner(ownerId: string, id: string): Promise<boolean>;
  /** Deletes the owner's links among `ids` (others' and unknown ids are left alone) and answers where each deleted one answered. */
  abstract deleteManyOfOwner(ownerId: string, ids: string[]): Promise<DeletedLink[]>;
  /**
   * Puts the tags `add` on, and takes `remove` off, the owner's links among `ids` (tag ids of the owner's);
   * answers the ids of the links it found. A link would then carry more than `maxTags`: ValidationError on
   * `add`, and nothing changes.
   */
  abstract retagManyOfOwner(ownerId: string, ids: string[], add: string[], remove: string[], maxTags: number): Promise<string[]>;
  /** Up to `limit` of the owner's links with ids after `afterId` (null: from the first), oldest first: an export's keyset batches. */
  abstract batchOfOwner(ownerId: string, afterId: string | null, limit: number): Promise<Link[]>;
  abstract countOfOwner(ownerId: string): Promise<number>;
  abstract countUsingDomain(ownerId: string, domainId: string): Promise<number>;
  /** The ids of the owner's links that carry the tag (statistics filter by tag). */
  abstract idsTaggedWith(ownerId: string, tagId: string): Promise<string[]>;
  abstract deleteAllOfOwner(ownerId: string): Promise<void>;
  abstract findForRedirect(domainId: string | null, slug: string): Promise<RedirectTarget | null>;
  abstract addClicks(visitsByLink: Map<string, number>): Promise<void>;
}
