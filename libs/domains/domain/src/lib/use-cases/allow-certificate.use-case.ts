import { Clock, RateLimitedError, TtlLruCache } from '@lnk/shared/kernel';
import { NoCertificateError } from '../model/domain-errors';
import { certificateHostOf, normalizeDomainName } from '../model/domain-name';
import { DomainRepository } from '../ports/domain.repository';

export interface AllowCertificateOptions {
  /** Hosts the service answers as itself (PUBLIC_BASE_URL's, SHORT_BASE_URL's): always allowed. */
  servedHosts: readonly string[];
  /** Hosts no custom domain may be, nor be under (the served hosts, the DNS target). */
  ownHosts: readonly string[];
  /** Answers kept, allowed and refused apart (a flood of refusals cannot push the allowed out); refusals shorter. */
  cache: { maxEntries: number; allowedTtlMs: number; refusedTtlMs: number };
  /** Lookups in the database at once; an ask past them is refused at once (RATE_LIMITED). */
  maxLookups: number;
}

/**
 * A TLS-terminating proxy's question before it obtains a certificate for a host (Caddy's on-demand `ask`):
 * yes for the service's own hosts and verified custom domains. Anyone can make the proxy ask, for any
 * name (a TLS handshake with a made-up server name), so an ask costs at most one indexed lookup: the name
 * is checked first (an address or junk is a ValidationError on `domain`), answers are kept, concurrent asks
 * for one name share a lookup, and lookups running at once are bounded. A domain verified or no longer
 * verified is told through `forget` (every instance, through the same events as the redirect's host cache).
 */
export class AllowCertificateUseCase {
  private readonly served: ReadonlySet<string>;
  private readonly allowed: TtlLruCache<string, true>;
  private readonly refused: TtlLruCache<string, true>;
  private readonly inFlight = new Map<string, Promise<boolean>>();
  /** Counts forgets: a lookup that ran across one may hold the answer from before the change, and is not kept. */
  private generation = 0;

  constructor(
    private readonly domains: DomainRepository,
    clock: Clock,
    private readonly options: AllowCertificateOptions,
  ) {
    this.served = new Set(options.servedHosts);
    const now = () => clock.nowMs();
    this.allowed = new TtlLruCache({ maxEntries: options.cache.maxEntries, ttlMs: options.cache.allowedTtlMs }, now);
    this.refused = new TtlLruCache({ maxEntries: options.cache.maxEntries, ttlMs: options.cache.refusedTtlMs }, now);
  }

  /** The host as asked, normalised, when a certificate may be obtained for it; else NoCertificateError. */
  async execute(asked: unknown): Promise<string> {
    const host = certificateHostOf(asked);
    if (this.served.has(host)) return host;
    if (!this.mayBeCustomDomain(host) || this.refused.get(host)) throw new NoCertificateError();
    if (this.allowed.get(host)) return host;
    if (!(await (this.inFlight.get(host) ?? this.lookUp(host)))) throw new NoCertificateError();
    return host;
  }

  /** A domain was verified or lost its verification: its next ask looks again. */
  forget(name: string): void {
    this.generation++;
    this.allowed.delete(name);
    this.refused.delete(name);
    this.inFlight.delete(name);
  }

  /** Changes may have been missed (the bus that tells them was away). */
  forgetAll(): void {
    this.generation++;
    this.allowed.clear();
    this.refused.clear();
    this.inFlight.clear();
  }

  /** What no account could have added (a single label, a host of the service or under one) is never looked up. */
  private mayBeCustomDomain(host: string): boolean {
    try {
      normalizeDomainName(host, this.options.ownHosts);
      return true;
    } catch {
      return false;
    }
  }

  private lookUp(host: string): Promise<boolean> {
    if (this.inFlight.size >= this.options.maxLookups) throw new RateLimitedError(1);
    const generation = this.generation;
    const lookup = this.domains.findVerifiedByName(host).then(
      (domain) => {
        if (this.inFlight.get(host) === lookup) this.inFlight.delete(host);
        if (generation === this.generation) (domain ? this.allowed : this.refused).set(host, true);
        return domain !== null;
      },
      (error: unknown) => {
        if (this.inFlight.get(host) === lookup) this.inFlight.delete(host);
        throw error;
      },
    );
    this.inFlight.set(host, lookup);
    return lookup;
  }
}
