import { Clock, IdGenerator, NotFoundError, Page, PageRequest, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { Domain, DomainNotVerifiedError } from '../model/domain.entity';
import { normalizeDomainName } from '../model/domain-name';
import { DnsResolver, DomainRepository, DomainUsage } from '../ports/domain.ports';

const takenElsewhere = () => ValidationError.field('name', 'another account has verified this domain');

export class AddDomainUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly quota: QuotaPolicy,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly config: { ownHosts: string[] },
  ) {}

  async execute(ownerId: string, name: string): Promise<Domain> {
    const normalized = normalizeDomainName(name, this.config.ownHosts);
    if (await this.domains.hasOfOwner(ownerId, normalized)) throw ValidationError.field('name', 'you have already added this domain');
    if (await this.domains.isVerifiedByAnother(normalized, ownerId)) throw takenElsewhere();
    const now = this.clock.now();
    const domain = new Domain({ id: this.ids.next(), ownerId, name: normalized, isVerified: false, verifiedAt: null, createdAt: now, updatedAt: now });
    await this.domains.insertWithinQuota(domain, await this.quota.limitFor(ownerId, 'domains'));
    return domain;
  }
}

export class ListDomainsUseCase {
  constructor(private readonly domains: DomainRepository) {}

  execute(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<Domain>> {
    return this.domains.listOfOwner(ownerId, query?.trim() || undefined, page);
  }
}

const bare = (host: string) => host.toLowerCase().replace(/\.$/, '');

/** Checks in DNS that the name has a CNAME to the service's target; then the domain serves links. */
export class VerifyDomainUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
    private readonly config: { target: string },
  ) {}

  async execute(ownerId: string, id: string): Promise<Domain> {
    const domain = await this.domains.findOfOwner(ownerId, id);
    if (!domain) throw new NotFoundError('Domain');
    if (domain.isVerified) return domain;
    const target = bare(this.config.target);
    const answer = await this.dns.cnameOf(domain.name);
    switch (answer.kind) {
      case 'none':
        throw new DomainNotVerifiedError(`DNS has no CNAME record for ${domain.name}; create CNAME ${target}`);
      case 'timeout':
        throw new DomainNotVerifiedError(`The DNS lookup of ${domain.name} timed out; try again shortly`);
      case 'error':
        throw new DomainNotVerifiedError(`The DNS lookup of ${domain.name} failed: ${answer.message}`);
      case 'cname':
        if (!answer.targets.map(bare).includes(target)) {
          throw new DomainNotVerifiedError(`${domain.name} has a CNAME to ${answer.targets.map(bare).join(', ')}, expected ${target}`);
        }
    }
    if (await this.domains.isVerifiedByAnother(domain.name, ownerId)) throw takenElsewhere();
    domain.markVerified(this.clock.now());
    await this.domains.markVerified(domain);
    return domain;
  }
}

export class DeleteDomainUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly usage: DomainUsage,
  ) {}

  async execute(ownerId: string, id: string): Promise<void> {
    const domain = await this.domains.findOfOwner(ownerId, id);
    if (!domain) throw new NotFoundError('Domain');
    const links = await this.usage.linksUsing(ownerId, id);
    if (links > 0) throw ValidationError.field('id', `links still use this domain (${links}); move or delete them first`);
    await this.domains.deleteOfOwner(ownerId, id);
  }
}
