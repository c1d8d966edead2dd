import { Clock, found } from '@lnk/shared/kernel';
import { takenElsewhere } from '../model/domain-errors';
import { Domain, DomainNotVerifiedError } from '../model/domain.entity';
import { DnsResolver } from '../ports/dns-resolver.port';
import { DomainVerificationListener } from '../ports/domain-verification-listener.port';
import { DomainRepository } from '../ports/domain.repository';
import { checkDomainRecords, RoutingTarget } from '../services/domain-records';

/** What verifying a domain needs: its DNS records, and who is told of the verification. */
export interface DomainVerification {
  domains: DomainRepository;
  dns: DnsResolver;
  clock: Clock;
  listener: DomainVerificationListener;
  config: { target: RoutingTarget };
}

/**
 * Checks in DNS that the name carries this account's TXT challenge (proof of control) and routes to the
 * service (a CNAME to its target, or at a zone apex A/AAAA records at its addresses); then the domain
 * serves links.
 */
export class VerifyDomainUseCase {
  constructor(private readonly deps: DomainVerification) {}

  async execute(ownerId: string, id: string): Promise<Domain> {
    const domain = found(await this.deps.domains.findOfOwner(ownerId, id), 'Domain');
    if (domain.isVerified) return domain;
    const check = await checkDomainRecords(this.deps.dns, domain, this.deps.config.target);
    if (check.status !== 'present') throw new DomainNotVerifiedError(check.message);
    if (await this.deps.domains.isVerifiedByAnother(domain.name, ownerId)) throw takenElsewhere();
    domain.markVerified(this.deps.clock.now());
    await this.deps.domains.markVerified(domain);
    this.deps.listener.verificationChanged(domain.name);
    return domain;
  }
}
