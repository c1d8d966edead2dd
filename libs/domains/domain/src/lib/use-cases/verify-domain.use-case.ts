import { Clock, found } from '@lnk/shared/kernel';
import { takenElsewhere } from '../model/domain-errors';
import { Domain, DomainNotVerifiedError } from '../model/domain.entity';
import { DnsResolver } from '../ports/dns-resolver.port';
import { DomainVerificationListener } from '../ports/domain-verification-listener.port';
import { DomainRepository } from '../ports/domain.repository';
import { checkDomainRecords, RoutingTarget } from '../services/domain-records';

/**
 * Checks in DNS that the name carries this account's TXT challenge (proof of control) and routes to the
 * service (a CNAME to its target, or at a zone apex A/AAAA records at its addresses); then the domain
 * serves links.
 */
export class VerifyDomainUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
    private readonly listener: DomainVerificationListener,
    private readonly config: { target: RoutingTarget },
  ) {}

  async execute(ownerId: string, id: string): Promise<Domain> {
    const domain = found(await this.domains.findOfOwner(ownerId, id), 'Domain');
    if (domain.isVerified) return domain;
    const check = await checkDomainRecords(this.dns, domain, this.config.target);
    if (check.status !== 'present') throw new DomainNotVerifiedError(check.message);
    if (await this.domains.isVerifiedByAnother(domain.name, ownerId)) throw takenElsewhere();
    domain.markVerified(this.clock.now());
    await this.domains.markVerified(domain);
    this.listener.verificationChanged(domain.name);
    return domain;
  }
}
