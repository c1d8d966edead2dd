import { LinkDomains } from '../ports/link-domains.port';
import { LinkRepository, RedirectTarget } from '../ports/link.repository';
import { RedirectLookup } from '../ports/redirect-lookup.port';

/** The redirect's reads straight from the link repository and the domains: every answer a lookup (the apps wrap it in a cache). */
export class RepositoryRedirectLookup extends RedirectLookup {
  constructor(
    private readonly links: LinkRepository,
    private readonly domains: LinkDomains,
  ) {
    super();
  }

  targetOf(domainId: string | null, slug: string): Promise<RedirectTarget | null> {
    return this.links.findForRedirect(domainId, slug);
  }

  async domainIdOf(host: string): Promise<string | null> {
    return (await this.domains.verifiedDomainByName(host))?.id ?? null;
  }
}
