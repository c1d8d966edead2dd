import { Clock } from '@lnk/shared/kernel';
import { Domain } from '../model/domain.entity';
import { DnsResolver } from '../ports/dns-resolver.port';
import { DomainVerificationListener } from '../ports/domain-verification-listener.port';
import { DomainRepository } from '../ports/domain.repository';
import { checkDomainRecords, RoutingTarget } from '../services/domain-records';

export interface RecheckResult {
  checked: number;
  lost: number;
}

/**
 * Re-checks verified domains in DNS, in batches: one whose TXT challenge or route (CNAME, A/AAAA) is definitely gone
 * loses its verification (its links stop answering at once, the domain says why and when); a lookup
 * that did not complete changes nothing but the time of the check.
 */
export class RecheckDomainsUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
    private readonly listener: DomainVerificationListener,
    private readonly config: { target: RoutingTarget; batchSize: number },
  ) {}

  /** Checks every verified domain not checked in the last `minAgeMs` (0: all of them). */
  async execute(options: { minAgeMs?: number } = {}): Promise<RecheckResult> {
    const before = new Date(this.clock.now().getTime() - (options.minAgeMs ?? 0));
    const seen = new Set<string>();
    const result: RecheckResult = { checked: 0, lost: 0 };
    for (;;) {
      const batch = (await this.domains.listVerifiedCheckedBefore(before, this.config.batchSize)).filter((d) => !seen.has(d.id));
      if (batch.length === 0) return result;
      batch.forEach((d) => seen.add(d.id));
      const lost = await Promise.all(batch.map((d) => this.recheck(d)));
      result.checked += batch.length;
      result.lost += lost.filter(Boolean).length;
    }
  }

  private async recheck(domain: Domain): Promise<boolean> {
    const check = await checkDomainRecords(this.dns, domain, this.config.target);
    if (check.status === 'absent') {
      domain.loseVerification(check.message, this.clock.now());
      if (await this.domains.loseVerification(domain)) {
        this.listener.verificationChanged(domain.name);
        return true;
      }
      return false;
    }
    domain.markChecked(this.clock.now());
    await this.domains.markChecked(domain);
    return false;
  }
}
