import { TtlLruCache } from '@lnk/shared/kernel';
import { shortUrlHost } from '../model/short-host';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkRepository, RedirectTarget } from '../ports/link.repository';

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

const linkKey = (domainId: string | null, slug: string) => `${domainId ?? ''}/${slug}`;

/**
 * A cache of lookups whose answers may be "nothing": found values and "nothing" live in separate bounded
 * maps (misses cannot evict hits), and concurrent misses on one key share one lookup (single flight).
 * A key evicted while its lookup runs does not keep that lookup's answer: it may predate the change.
 * When a lookup fails (the database is away or stalled) an answer past its time that is still held is
 * given instead (stale if error): nothing can change a link while its database is away, and a change
 * evicts its entry, so a held answer is the last one the database gave.
 */
class LookupCache<V> {
  private readonly inFlight = new Map<string, Promise<V | null>>();

  constructor(
    private readonly found: TtlLruCache<string, V>,
    private readonly missing: TtlLruCache<string, true>,
  ) {}

  /** The cached answer (a value, or null for "nothing"), or undefined when the cache does not know. */
  cached(key: string): V | null | undefined {
    const hit = this.found.get(key);
    if (hit !== undefined) return hit;
    return this.missing.get(key) ? null : undefined;
  }

  get(key: string, load: () => Promise<V | null>): V | null | Promise<V | null> {
    const known = this.cached(key);
    if (known !== undefined) return known;
    const running = this.inFlight.get(key);
    if (running) return running;
    const lookup = load().then(
      (value) => {
        if (this.inFlight.get(key) === lookup) {
          this.inFlight.delete(key);
          // One answer per key: the other map's older one must not come back as a stale answer.
          if (value === null) {
            this.found.delete(key);
            this.missing.set(key, true);
          } else {
            this.missing.delete(key);
            this.found.set(key, value);
          }
        }
        return value;
      },
      (error: unknown) => {
        if (this.inFlight.get(key) === lookup) this.inFlight.delete(key);
        const stale = this.found.stale(key);
        if (stale !== undefined) return stale;
        if (this.missing.stale(key)) return null;
        throw error;
      },
    );
    this.inFlight.set(key, lookup);
    return lookup;
  }

  delete(key: string): void {
    this.found.delete(key);
    this.missing.delete(key);
    this.inFlight.delete(key);
  }

  clear(): void {
    this.found.clear();
    this.missing.clear();
    this.inFlight.clear();
  }
}

/**
 * Finds the link a short URL names: the host picks the namespace, the slug the link. The service's own
 * short hosts (`shortHosts`) serve the default short domain's links, a verified custom domain its own,
 * and any other host none (issue 27: it served the default short domain's, so a custom domain spelled
 * with a trailing dot answered other accounts' slugs). Hosts are compared as `shortUrlHost` spells them.
 * Answers come from an in-process cache (bounded, with a TTL; "not found" kept apart, smaller and
 * shorter-lived); a change to a link evicts it at once through `linkChanged`, a domain's verification
 * or loss of it through `forgetHost` (the apps wire both to the events that tell them).
 */
export class ResolveRedirectUseCase {
  private readonly hosts: LookupCache<string>;
  private readonly links: LookupCache<RedirectTarget>;
  private readonly shortHosts: ReadonlySet<string>;

  constructor(
    private readonly repository: LinkRepository,
    private readonly domains: LinkDomains,
    shortHosts: readonly string[],
    options: RedirectCacheOptions = { maxEntries: 50_000, ttlMs: 60_000 },
    now: () => number = Date.now,
  ) {
    this.shortHosts = new Set(shortHosts.map(shortUrlHost));
    const notFound = { maxEntries: options.notFoundMaxEntries ?? 10_000, ttlMs: Math.min(options.notFoundTtlMs ?? 5_000, options.ttlMs) };
    this.hosts = new LookupCache(new TtlLruCache({ maxEntries: 10_000, ttlMs: Math.min(options.ttlMs, 30_000) }, now), new TtlLruCache(notFound, now));
    this.links = new LookupCache(new TtlLruCache(options, now), new TtlLruCache(notFound, now));
  }

  linkChanged(domainId: string | null, slug: string): void {
    this.links.delete(linkKey(domainId, slug));
  }

  /** Forgets which domain a host names (it was verified, or lost its verification): the next request asks again. */
  forgetHost(host: string): void {
    this.hosts.delete(shortUrlHost(host));
  }

  /** Forgets every link and host: changes may have been missed (the bus that tells them was away). */
  forgetAll(): void {
    this.links.clear();
    this.hosts.clear();
  }

  async execute(host: string, slug: string): Promise<RedirectTarget | null> {
    return this.lookup(host, slug);
  }

  /** As `execute`, but the answer itself when it is cached (the hot path awaits nothing). */
  lookup(host: string, slug: string): RedirectTarget | null | Promise<RedirectTarget | null> {
    const name = shortUrlHost(host);
    if (this.shortHosts.has(name)) return this.linkOf(null, slug);
    const domainId = this.domainOf(name);
    if (domainId instanceof Promise) return domainId.then((id) => (id === null ? null : this.linkOf(id, slug)));
    return domainId === null ? null : this.linkOf(domainId, slug);
  }

  private linkOf(domainId: string | null, slug: string): RedirectTarget | null | Promise<RedirectTarget | null> {
    const key = linkKey(domainId, slug);
    // A cache hit makes no loader closure: it is only needed on a miss.
    const known = this.links.cached(key);
    return known !== undefined ? known : this.links.get(key, () => this.repository.findForRedirect(domainId, slug));
  }

  /** Whether the host is one of the service's own short hosts, whose links are the default short domain's. */
  isShortHost(host: string): boolean {
    return this.shortHosts.has(shortUrlHost(host));
  }

  /** Whether the host is a verified custom domain (its `/` and unknown slugs are its own, not the service's). */
  async isCustomDomain(host: string): Promise<boolean> {
    const name = shortUrlHost(host);
    return !this.shortHosts.has(name) && (await this.domainOf(name)) !== null;
  }

  private domainOf(host: string): string | null | Promise<string | null> {
    const known = this.hosts.cached(host);
    return known !== undefined ? known : this.hosts.get(host, async () => (await this.domains.verifiedDomainByName(host))?.id ?? null);
  }
}
