import { Link } from '../model/link.entity';
import { Tag } from '../model/tag.entity';
import { LinkDomain } from '../ports/link-domains.port';

export interface LinksConfig {
  /** Host names of the service's own short domains: destinations may not point at them. */
  ownHosts: string[];
}

export interface LinkFields {
  url?: string;
  slug?: string;
  title?: string;
  description?: string;
  status?: boolean;
  domainId?: string | null;
  hasPassword?: boolean;
  password?: string;
  tags?: string[];
}

/** A link with what its responses show besides its own fields. */
export interface LinkView {
  link: Link;
  domain: LinkDomain | null;
  tags: Tag[];
}
