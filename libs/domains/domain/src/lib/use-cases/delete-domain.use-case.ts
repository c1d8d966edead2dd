import { found, ValidationError } from '@lnk/shared/kernel';
import { DomainUsage } from '../ports/domain-usage.port';
import { DomainVerificationListener } from '../ports/domain-verification-listener.port';
import { DomainRepository } from '../ports/domain.repository';

export class DeleteDomainUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly usage: DomainUsage,
    private readonly listener: DomainVerificationListener,
  ) {}

  async execute(ownerId: string, id: string): Promise<void> {
    const domain = found(await this.domains.findOfOwner(ownerId, id), 'Domain');
    const links = await this.usage.linksUsing(ownerId, id);
    if (links > 0) throw ValidationError.field('id', `links still use this domain (${links}); move or delete them first`);
    await this.domains.deleteOfOwner(ownerId, id);
    // A verified name stops being a custom domain: every instance's host cache forgets it at once.
    if (domain.isVerified) this.listener.verificationChanged(domain.name);
  }
}
