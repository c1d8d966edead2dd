import { Clock, IdGenerator, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { takenElsewhere } from '../model/domain-errors';
import { normalizeDomainName } from '../model/domain-name';
import { Domain } from '../model/domain.entity';
import { ChallengeGenerator } from '../ports/challenge-generator.port';
import { DomainRepository } from '../ports/domain.repository';

export class AddDomainUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly quota: QuotaPolicy,
    private readonly ids: IdGenerator,
    private readonly challenges: ChallengeGenerator,
    private readonly clock: Clock,
    private readonly config: { ownHosts: string[] },
  ) {}

  async execute(ownerId: string, name: string): Promise<Domain> {
    const normalized = normalizeDomainName(name, this.config.ownHosts);
    if (await this.domains.hasOfOwner(ownerId, normalized)) throw ValidationError.field('name', 'you have already added this domain');
    if (await this.domains.isVerifiedByAnother(normalized, ownerId)) throw takenElsewhere();
    const now = this.clock.now();
    // Each (account, domain) gets its own challenge: only the account whose value is published in DNS can verify.
    const domain = Domain.add({ id: this.ids.next(), ownerId, name: normalized, challenge: this.challenges.next(), now });
    await this.domains.insertWithinQuota(domain, await this.quota.limitFor(ownerId, 'domains'));
    return domain;
  }
}
