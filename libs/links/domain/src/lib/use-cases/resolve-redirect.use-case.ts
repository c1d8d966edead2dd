import { shortUrlHost } from '../model/short-host';
import { RedirectTarget } from '../ports/link.repository';
import { RedirectLookup } from '../ports/redirect-lookup.port';

/**
 * Finds the link a short URL names: the host picks the namespace, the slug the link. The service's own
 * short hosts (`shortHosts`) serve the default short domain's links, a verified custom domain its own,
 * and any other host none (issue 27: it served the default short domain's, so a custom domain spelled
 * with a trailing dot answered other accounts' slugs). Hosts are compared as `shortUrlHost` spells them.
 * The answers come from a `RedirectLookup` (the apps give a cached one: links-adapter-cache).
 */
export class ResolveRedirectUseCase {
  private readonly shortHosts: ReadonlySet<string>;

  constructor(
    private readonly lookups: RedirectLookup,
    shortHosts: readonly string[],
  ) {
    this.shortHosts = new Set(shortHosts.map(shortUrlHost));
  }

  async execute(host: string, slug: string): Promise<RedirectTarget | null> {
    return this.lookup(host, slug);
  }

  /** As `execute`, but the answer itself when the lookup has it at once (the hot path awaits nothing). */
  lookup(host: string, slug: string): RedirectTarget | null | Promise<RedirectTarget | null> {
    const name = shortUrlHost(host);
    if (this.shortHosts.has(name)) return this.lookups.targetOf(null, slug);
    const domainId = this.lookups.domainIdOf(name);
    if (domainId instanceof Promise) return domainId.then((id) => (id === null ? null : this.lookups.targetOf(id, slug)));
    return domainId === null ? null : this.lookups.targetOf(domainId, slug);
  }

  /** Whether the host is one of the service's own short hosts, whose links are the default short domain's. */
  isShortHost(host: string): boolean {
    return this.shortHosts.has(shortUrlHost(host));
  }

  /** Whether the host is a verified custom domain (its `/` and unknown slugs are its own, not the service's). */
  async isCustomDomain(host: string): Promise<boolean> {
    const name = shortUrlHost(host);
    return !this.shortHosts.has(name) && (await this.lookups.domainIdOf(name)) !== null;
  }
}
