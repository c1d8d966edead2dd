import { CertificateHostLookup } from '../ports/certificate-host-lookup.port';
import { DomainRepository } from '../ports/domain.repository';

/** Every answer a lookup in the repository (the API wraps it in a cache: domains-adapter-cache). */
export class RepositoryCertificateHostLookup extends CertificateHostLookup {
  constructor(private readonly domains: DomainRepository) {
    super();
  }

  async isVerified(host: string): Promise<boolean> {
    return (await this.domains.findVerifiedByName(host)) !== null;
  }
}
