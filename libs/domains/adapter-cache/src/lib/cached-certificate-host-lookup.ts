import { CertificateHostLookup } from '@lnk/domains/domain';
import { LookupCache } from '@lnk/shared/cache';
import { RateLimitedError } from '@lnk/shared/kernel';

export interface CertificateAskBounds {
  /** Answers kept, allowed and refused apart (a flood of refusals cannot push the allowed out); refusals shorter. */
  cache: { maxEntries: number; allowedTtlMs: number; refusedTtlMs: number };
  /** Lookups in the database at once; an ask past them is refused at once (RATE_LIMITED). */
  maxLookups: number;
}

/**
 * The TLS asks' lookups with a cache in front: anyone can make the proxy ask, for any name, so an ask
 * costs at most one indexed lookup: answers are kept, concurrent asks for one name share a lookup, and
 * lookups running at once are bounded. A domain verified or no longer verified is told through
 * `hostChanged` (every instance, through the same events as the redirect's host cache).
 */
export class CachedCertificateHostLookup extends CertificateHostLookup {
  private readonly answers: LookupCache<string, true>;

  constructor(
    private readonly inner: CertificateHostLookup,
    private readonly bounds: CertificateAskBounds,
    now?: () => number,
  ) {
    super();
    const { maxEntries, allowedTtlMs, refusedTtlMs } = bounds.cache;
    this.answers = new LookupCache({ found: { maxEntries, ttlMs: allowedTtlMs, now }, missing: { maxEntries, ttlMs: refusedTtlMs } });
  }

  isVerified(host: string): boolean | Promise<boolean> {
    const known = this.answers.cached(host);
    if (known !== undefined) return known !== null;
    if (!this.answers.isLoading(host) && this.answers.loading >= this.bounds.maxLookups) throw new RateLimitedError(1);
    return (this.answers.get(host, async () => ((await this.inner.isVerified(host)) ? true : null)) as Promise<true | null>).then(
      (allowed) => allowed !== null,
    );
  }

  /** A domain was verified or lost its verification: its next ask looks again. */
  hostChanged(name: string): void {
    this.answers.delete(name);
  }

  /** Changes may have been missed (the bus that tells them was away). */
  forgetAll(): void {
    this.answers.clear();
  }
}
