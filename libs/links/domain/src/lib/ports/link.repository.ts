import { Page, PageRequest } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';

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
}

export abstract class LinkRepository {
  /**
   * Stores a new link if the owner holds fewer than `limit` links, atomically under concurrent calls
   * (else QuotaExceededError). A slug taken on the same domain is a ValidationError on `slug`.
   */
  abstract insertWithinQuota(link: Link, limit: number): Promise<void>;
  abstract findOfOwner(ownerId: string, id: string): Promise<Link | null>;
  /** Newest first; `query` matches title, slug or url, case-insensitively, anywhere. */
  abstract listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<Link>>;
  /** Saves a changed link; a slug taken on the same domain is a ValidationError on `slug`. */
  abstract update(link: Link): Promise<void>;
  abstract deleteOfOwner(ownerId: string, id: string): Promise<boolean>;
  abstract countOfOwner(ownerId: string): Promise<number>;
  abstract countUsingDomain(ownerId: string, domainId: string): Promise<number>;
  /** The ids of the owner's links that carry the tag (statistics filter by tag). */
  abstract idsTaggedWith(ownerId: string, tagId: string): Promise<string[]>;
  abstract deleteAllOfOwner(ownerId: string): Promise<void>;
  abstract findForRedirect(domainId: string | null, slug: string): Promise<RedirectTarget | null>;
  abstract addClicks(visitsByLink: Map<string, number>): Promise<void>;
}
