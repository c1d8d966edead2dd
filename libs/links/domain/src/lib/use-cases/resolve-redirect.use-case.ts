import { LinkDomains } from '../ports/link-ports';
import { LinkRepository, RedirectTarget } from '../ports/link.repository';

/**
 * A bounded map that forgets its least recently used entries and entries past their time. A hit moves
 * its entry to the back only once it has drifted past a quarter of the map (a Map delete and insert per
 * hit cost more than the lookup): the hot entries stay near the back, and are moved about four times
 * per `max` insertions or moves.
 */
class TtlLru<V> {
  private readonly entries = new Map<string, { value: V; until: number; seq: number }>();
  private seq = 0;

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(key: string): { value: V } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.seq - entry.seq > this.max >> 2) {
      this.entries.delete(key);
      entry.seq = ++this.seq;
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until: this.now() + this.ttlMs, seq: ++this.seq });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

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

/** Told when a link's redirect may have changed (created, updated, disabled, deleted). */
export abstract class LinkChanges {
  abstract linkChanged(domainId: string | null, slug: string): void;
}

const linkKey = (domainId: string | null, slug: string) => `${domainId ?? ''}/${slug}`;

/**
 * A cache of lookups whose answers may be "nothing": found values and "nothing" live in separate bounded
 * maps (misses cannot evict hits), and concurrent misses on one key share one lookup (single flight).
 * A key evicted while its lookup runs does not keep that lookup's answer: it may predate the change.
 */
class LookupCache<V> {
  private readonly found: TtlLru<V>;
  private readonly missing: TtlLru<null>;
  private readonly inFlight = new Map<string, Promise<V | null>>();

  constructor(found: TtlLru<V>, missing: TtlLru<null>) {
    this.found = found;
    this.missing = missing;
  }

  /** The cached answer (a value, or null for "nothing"), or undefined when the cache does not know. */
  cached(key: string): V | null | undefined {
    const hit = this.found.get(key);
    if (hit) return hit.value;
    return this.missing.get(key) ? null : undefined;
  }

  get(key: string, load: () => Promise<V | null>): V | null | Promise<V | null> {
    const hit = this.found.get(key);
    if (hit) return hit.value;
    if (this.missing.get(key)) return null;
    const running = this.inFlight.get(key);
    if (running) return running;
    const lookup = load().then(
      (value) => {
        if (this.inFlight.get(key) === lookup) {
          this.inFlight.delete(key);
          if (value === null) this.missing.set(key, null);
          else this.found.set(key, value);
        }
        return value;
      },
      (error: unknown) => {
        if (this.inFlight.get(key) === lookup) this.inFlight.delete(key);
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
 * Finds the link a short URL names: the host picks the namespace (a verified custom domain, or the
 * default short domain for any other host), the slug the link. Answers come from an in-process cache
 * (bounded, with a TTL; "not found" kept apart, smaller and shorter-lived); a change to a link evicts it
 * at once through `linkChanged`, a domain's verification or loss of it through `forgetHost`.
 */
export class ResolveRedirectUseCase extends LinkChanges {
  private readonly hosts: LookupCache<string>;
  private readonly links: LookupCache<RedirectTarget>;

  constructor(
    private readonly repository: LinkRepository,
    private readonly domains: LinkDomains,
    options: RedirectCacheOptions = { maxEntries: 50_000, ttlMs: 60_000 },
    now: () => number = Date.now,
  ) {
    super();
    const notFoundMax = options.notFoundMaxEntries ?? 10_000;
    const notFoundTtl = Math.min(options.notFoundTtlMs ?? 5_000, options.ttlMs);
    this.hosts = new LookupCache(new TtlLru(10_000, Math.min(options.ttlMs, 30_000), now), new TtlLru(notFoundMax, notFoundTtl, now));
    this.links = new LookupCache(new TtlLru(options.maxEntries, options.ttlMs, now), new TtlLru(notFoundMax, notFoundTtl, now));
  }

  linkChanged(domainId: string | null, slug: string): void {
    this.links.delete(linkKey(domainId, slug));
  }

  /** Forgets which domain a host names (it was verified, or lost its verification): the next request asks again. */
  forgetHost(host: string): void {
    this.hosts.delete(host.toLowerCase());
  }

  /** Forgets every cached answer (a domain changed hands, or a test wants a cold cache). */
  forgetAll(): void {
    this.hosts.clear();
    this.links.clear();
  }

  async execute(host: string, slug: string): Promise<RedirectTarget | null> {
    return this.lookup(host, slug);
  }

  /** As `execute`, but the answer itself when it is cached (the hot path awaits nothing). */
  lookup(host: string, slug: string): RedirectTarget | null | Promise<RedirectTarget | null> {
    const domainId = this.domainOf(host.toLowerCase());
    if (domainId instanceof Promise) return domainId.then((id) => this.linkOf(id, slug));
    return this.linkOf(domainId, slug);
  }

  private linkOf(domainId: string | null, slug: string): RedirectTarget | null | Promise<RedirectTarget | null> {
    const key = linkKey(domainId, slug);
    // A cache hit makes no loader closure: it is only needed on a miss.
    const known = this.links.cached(key);
    return known !== undefined ? known : this.links.get(key, () => this.repository.findForRedirect(domainId, slug));
  }

  /** Whether the host is a verified custom domain (its `/` and unknown slugs are its own, not the service's). */
  async isCustomDomain(host: string): Promise<boolean> {
    return (await this.domainOf(host.toLowerCase())) !== null;
  }

  private domainOf(host: string): string | null | Promise<string | null> {
    const known = this.hosts.cached(host);
    return known !== undefined ? known : this.hosts.get(host, async () => (await this.domains.verifiedDomainByName(host))?.id ?? null);
  }
}
