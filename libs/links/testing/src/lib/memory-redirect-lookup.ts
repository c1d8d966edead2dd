import { LinkChanges, RedirectLookup, RedirectTarget, ShortHostChanges, shortUrlHost } from '@lnk/links/domain';

/**
 * The redirect's lookups remembered until a change is told, as links-adapter-cache's CachedRedirectLookup
 * does (without its bounds and times): a remembered answer comes at once, not as a promise, so a domain
 * test sees what the hot path sees, and an eviction the use cases forgot shows as a stale answer.
 */
export class MemoryRedirectLookup extends RedirectLookup implements LinkChanges, ShortHostChanges {
  private readonly targets = new Map<string, RedirectTarget | null>();
  private readonly hosts = new Map<string, string | null>();

  constructor(private readonly inner: RedirectLookup) {
    super();
  }

  targetOf(domainId: string | null, slug: string): RedirectTarget | null | Promise<RedirectTarget | null> {
    const key = `${domainId ?? ''}/${slug}`;
    if (this.targets.has(key)) return this.targets.get(key) as RedirectTarget | null;
    return Promise.resolve(this.inner.targetOf(domainId, slug)).then((target) => (this.targets.set(key, target), target));
  }

  domainIdOf(host: string): string | null | Promise<string | null> {
    if (this.hosts.has(host)) return this.hosts.get(host) as string | null;
    return Promise.resolve(this.inner.domainIdOf(host)).then((id) => (this.hosts.set(host, id), id));
  }

  linkChanged(domainId: string | null, slug: string): void {
    this.targets.delete(`${domainId ?? ''}/${slug}`);
  }

  hostChanged(host: string): void {
    this.hosts.delete(shortUrlHost(host));
  }
}
