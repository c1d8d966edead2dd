import { LinkChanges, RedirectLookup, RedirectTarget, ShortHostChanges, shortUrlHost } from '@lnk/links/domain';
import { LookupCache } from '@lnk/shared/cache';

export interface RedirectCacheOptions {
  /** Links found: the popular ones stay. */
  maxEntries: number;
  ttlMs: number;
  /**
   * Answers "no such link", kept apart so a flood of unknown slugs (scanners) cannot push found links
   * out, and short-lived: a link created meanwhile evicts its entry anyway, in every instance.
   */
  notFoundMaxEntries?: number;
  notFoundTtlMs?: number;
}

/** Hosts held (verified custom domains; unknown hosts apart, as unknown slugs), and for at most this long. */
const HOSTS = { maxEntries: 10_000, maxTtlMs: 30_000 };

const linkKey = (domainId: string | null, slug: string) => `${domainId ?? ''}/${slug}`;

/**
 * The redirect's lookups with an in-process cache in front (bounded, with a TTL; "not found" kept apart,
 * smaller and shorter-lived): a hit is answered at once, not as a promise, so the redirect's hot path
 * awaits nothing. A change to a link evicts it at once (`linkChanged`), a domain's verification or loss
 * of it its host (`hostChanged`); the apps wire both to the events that tell them, on every instance.
 * When a lookup fails (the database is away or stalled) an answer past its time that is still held is
 * given instead: nothing can change a link while its database is away, and a change evicts its entry, so
 * a held answer is the last one the database gave.
 */
export class CachedRedirectLookup extends RedirectLookup implements LinkChanges, ShortHostChanges {
  private readonly links: LookupCache<string, RedirectTarget>;
  private readonly hosts: LookupCache<string, string>;

  constructor(
    private readonly inner: RedirectLookup,
    options: RedirectCacheOptions = { maxEntries: 50_000, ttlMs: 60_000 },
    now?: () => number,
  ) {
    super();
    const missing = { maxEntries: options.notFoundMaxEntries ?? 10_000, ttlMs: Math.min(options.notFoundTtlMs ?? 5_000, options.ttlMs) };
    this.links = new LookupCache({ found: { maxEntries: options.maxEntries, ttlMs: options.ttlMs, now }, missing, staleIfError: true });
    this.hosts = new LookupCache({
      found: { maxEntries: HOSTS.maxEntries, ttlMs: Math.min(options.ttlMs, HOSTS.maxTtlMs), now },
      missing,
      staleIfError: true,
    });
  }

  targetOf(domainId: string | null, slug: string): RedirectTarget | null | Promise<RedirectTarget | null> {
    const key = linkKey(domainId, slug);
    // A hit makes no loader closure: it is only needed on a miss.
    const known = this.links.cached(key);
    return known !== undefined ? known : this.links.get(key, () => Promise.resolve(this.inner.targetOf(domainId, slug)));
  }

  domainIdOf(host: string): string | null | Promise<string | null> {
    const known = this.hosts.cached(host);
    return known !== undefined ? known : this.hosts.get(host, () => Promise.resolve(this.inner.domainIdOf(host)));
  }

  linkChanged(domainId: string | null, slug: string): void {
    this.links.delete(linkKey(domainId, slug));
  }

  /** Forgets which domain a host names (it was verified, or lost its verification): the next request asks again. */
  hostChanged(host: string): void {
    this.hosts.delete(shortUrlHost(host));
  }

  /** Forgets every link and host: changes may have been missed (the bus that tells them was away). */
  forgetAll(): void {
    this.links.clear();
    this.hosts.clear();
  }
}
