import { LinkDomains } from '../ports/link-ports';
import { LinkRepository, RedirectTarget } from '../ports/link.repository';

/** A bounded map that forgets its oldest entries and entries past their time. */
class TtlLru<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

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
    // Most recently used goes to the back.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

export interface RedirectCacheOptions {
  maxEntries: number;
  ttlMs: number;
}

/** Told when a link's redirect may have changed (update, disable, delete). */
export abstract class LinkChanges {
  abstract linkChanged(domainId: string | null, slug: string): void;
}

const linkKey = (domainId: string | null, slug: string) => `${domainId ?? ''}/${slug}`;

/**
 * Finds the link a short URL names: the host picks the namespace (a verified custom domain, or the
 * default short domain for any other host), the slug the link. Answers come from an in-process cache
 * (bounded, with a TTL); a change to a link evicts it at once through `linkChanged`.
 */
export class ResolveRedirectUseCase extends LinkChanges {
  private readonly hosts: TtlLru<string | null>;
  private readonly links: TtlLru<RedirectTarget | null>;

  constructor(
    private readonly repository: LinkRepository,
    private readonly domains: LinkDomains,
    options: RedirectCacheOptions = { maxEntries: 50_000, ttlMs: 60_000 },
    now: () => number = Date.now,
  ) {
    super();
    this.hosts = new TtlLru(10_000, Math.min(options.ttlMs, 30_000), now);
    this.links = new TtlLru(options.maxEntries, options.ttlMs, now);
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
    const domainId = await this.domainOf(host.toLowerCase());
    const key = linkKey(domainId, slug);
    const cached = this.links.get(key);
    if (cached) return cached.value;
    const target = await this.repository.findForRedirect(domainId, slug);
    this.links.set(key, target);
    return target;
  }

  /** Whether the host is a verified custom domain (its `/` and unknown slugs are its own, not the service's). */
  async isCustomDomain(host: string): Promise<boolean> {
    return (await this.domainOf(host.toLowerCase())) !== null;
  }

  private async domainOf(host: string): Promise<string | null> {
    const cached = this.hosts.get(host);
    if (cached) return cached.value;
    const domain = await this.domains.verifiedDomainByName(host);
    this.hosts.set(host, domain?.id ?? null);
    return domain?.id ?? null;
  }
}
