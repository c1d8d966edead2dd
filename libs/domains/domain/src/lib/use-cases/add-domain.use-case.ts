import { Clock, IdGenerator, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { takenElsewhere } from '../model/domain-errors';
import { normalizeDomainName } from '../model/domain-name';
import { Domain } from '../model/domain.entity';
import { ChallengeGenerator } from '../ports/challenge-generator.port';
import { DomainRepository } from '../ports/domain.repository';

/** What adding a custom domain needs: the domains, the quota, and the verification challenge's making. */
export interface DomainAddition {
  domains: DomainRepository;
  quota: QuotaPolicy;
  ids: IdGenerator;
  challenges: ChallengeGenerator;
  clock: Clock;
  config: { ownHosts: string[] };
}

export class AddDomainUseCase {
  constructor(private readonly deps: DomainAddition) {}

  async execute(ownerId: string, name: string): Promise<Domain> {
    const normalized = normalizeDomainName(name, this.deps.config.ownHosts);
    if (await this.deps.domains.hasOfOwner(ownerId, normalized)) throw ValidationError.field('name', 'you have already added this domain');
    if (await this.deps.domains.isVerifiedByAnother(normalized, ownerId)) throw takenElsewhere();
    const now = this.deps.clock.now();
    // Each (account, domain) gets its own challenge: only the account whose value is published in DNS can verify.
    const domain = Domain.add({ id: this.deps.ids.next(), ownerId, name: normalized, challenge: this.deps.challenges.next(), now });
    await this.deps.domains.insertWithinQuota(domain, await this.deps.quota.limitFor(ownerId, 'domains'));
    return domain;
  }
}
