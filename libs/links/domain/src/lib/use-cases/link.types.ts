import { Link } from '../model/link.entity';
import { LinkOptionFields } from '../model/link-options';
import { Tag } from '../model/tag.entity';
import { LinkDomain } from '../ports/link-domains.port';
import { LinkListView } from '../ports/link.repository';

export interface LinksConfig {
  /** Host names of the service's own short domains: destinations may not point at them. */
  ownHosts: string[];
}

/** A create or update body's fields; the options (issue 18) are each optional, checked by the domain. */
export interface LinkFields extends LinkOptionFields {
  url?: string;
  slug?: string;
  title?: string;
  description?: string;
  status?: boolean;
  domainId?: string | null;
  hasPassword?: boolean;
  password?: string;
  tags?: string[];
  isFavorite?: boolean;
}

/** The list's filters and order besides its search. */
export interface LinkListFilter extends LinkListView {
  /** true: only expired links (past expiresAt, or visits used up); false: only the others. */
  expired?: boolean;
}

/** A link with what its responses show besides its own fields. */
export interface LinkView {
  link: Link;
  domain: LinkDomain | null;
  tags: Tag[];
}
