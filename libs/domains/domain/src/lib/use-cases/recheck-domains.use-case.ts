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

/** What the periodic re-check of verified domains needs: their DNS, and who is told of a lost verification. */
export interface DomainRechecks {
  domains: DomainRepository;
  dns: DnsResolver;
  clock: Clock;
  listener: DomainVerificationListener;
  config: { target: RoutingTarget; batchSize: number };
}

/**
 * Re-checks verified domains in DNS, in batches: one whose TXT challenge or route (CNAME, A/AAAA) is definitely gone
 * loses its verification (its links stop answering at once, the domain says why and when); a lookup
 * that did not complete changes nothing but the time of the check.
 */
export class RecheckDomainsUseCase {
  constructor(private readonly deps: DomainRechecks) {}

  /** Checks every verified domain not checked in the last `minAgeMs` (0: all of them). */
  async execute(options: { minAgeMs?: number } = {}): Promise<RecheckResult> {
    const before = new Date(this.deps.clock.now().getTime() - (options.minAgeMs ?? 0));
    const seen = new Set<string>();
    const result: RecheckResult = { checked: 0, lost: 0 };
    for (;;) {
      const batch = (await this.deps.domains.listVerifiedCheckedBefore(before, this.deps.config.batchSize)).filter((d) => !seen.has(d.id));
      if (batch.length === 0) return result;
      batch.forEach((d) => seen.add(d.id));
      const lost = await Promise.all(batch.map((d) => this.recheck(d)));
      result.checked += batch.length;
      result.lost += lost.filter(Boolean).length;
    }
  }

  private async recheck(domain: Domain): Promise<boolean> {
    const check = await checkDomainRecords(this.deps.dns, domain, this.deps.config.target);
    if (check.status === 'absent') {
      domain.loseVerification(check.message, this.deps.clock.now());
      if (await this.deps.domains.loseVerification(domain)) {
        this.deps.listener.verificationChanged(domain.name);
        return true;
      }
      return false;
    }
    domain.markChecked(this.deps.clock.now());
    await this.deps.domains.markChecked(domain);
    return false;
  }
}
