import { NoCertificateError } from '../model/domain-errors';
import { certificateHostOf, normalizeDomainName } from '../model/domain-name';
import { CertificateHostLookup } from '../ports/certificate-host-lookup.port';

export interface AllowCertificateOptions {
  /** Hosts the service answers as itself (PUBLIC_BASE_URL's, SHORT_BASE_URL's): always allowed. */
  servedHosts: readonly string[];
  /** Hosts no custom domain may be, nor be under (the served hosts, the DNS target). */
  ownHosts: readonly string[];
}

/**
 * A TLS-terminating proxy's question before it obtains a certificate for a host (Caddy's on-demand `ask`):
 * yes for the service's own hosts and verified custom domains. Anyone can make the proxy ask, for any
 * name (a TLS handshake with a made-up server name), so the name is checked first (an address or junk is
 * a ValidationError on `domain`), a name no account could have added is never looked up, and the lookup
 * the API gives keeps answers, shares concurrent asks and bounds lookups at once (CachedCertificateHostLookup).
 */
export class AllowCertificateUseCase {
  private readonly served: ReadonlySet<string>;

  constructor(
    private readonly hosts: CertificateHostLookup,
    private readonly options: AllowCertificateOptions,
  ) {
    this.served = new Set(options.servedHosts);
  }

  /** The host as asked, normalised, when a certificate may be obtained for it; else NoCertificateError. */
  async execute(asked: unknown): Promise<string> {
    const host = certificateHostOf(asked);
    if (this.served.has(host)) return host;
    if (!this.mayBeCustomDomain(host) || !(await this.hosts.isVerified(host))) throw new NoCertificateError();
    return host;
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
}
