import { Clock, IdGenerator, NotFoundError, Page, PageRequest, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { Domain, DomainNotVerifiedError } from '../model/domain.entity';
import { normalizeDomainName } from '../model/domain-name';
import { ChallengeGenerator, DnsResolver, DomainRepository, DomainUsage, DomainVerificationListener } from '../ports/domain.ports';

const takenElsewhere = () => ValidationError.field('name', 'another account has verified this domain');

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
    const domain = new Domain({
      id: this.ids.next(),
      ownerId,
      name: normalized,
      challenge: this.challenges.next(),
      isVerified: false,
      verifiedAt: null,
      verificationLostAt: null,
      verificationLostReason: null,
      checkedAt: null,
      createdAt: now,
      updatedAt: now,
    });
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

/** What DNS shows of a domain's two records: both there, one definitely missing, or no sure answer. */
export type RecordCheck = { status: 'present' } | { status: 'absent'; message: string } | { status: 'unsure'; message: string };

/**
 * Looks for the domain's TXT challenge and its CNAME to the service's target. Messages name only the
 * expected record that was not found: never what the resolver returned, nor its error codes, so
 * verification is no DNS lookup tool through the server.
 */
export async function checkDomainRecords(dns: DnsResolver, domain: Domain, target: string): Promise<RecordCheck> {
  const expected = bare(target);
  const [txt, cname] = await Promise.all([dns.txtOf(domain.challengeName), dns.cnameOf(domain.name)]);
  const missing: string[] = [];
  let unsure = false;
  if (txt.kind === 'txt') {
    if (!txt.records.some((r) => r.trim() === domain.challenge)) missing.push(`no TXT record ${domain.challengeName} with this domain's challenge`);
  } else if (txt.kind === 'none') missing.push(`no TXT record ${domain.challengeName} with this domain's challenge`);
  else unsure = true;
  if (cname.kind === 'cname') {
    if (!cname.targets.map(bare).includes(expected)) missing.push(`no CNAME record ${domain.name} -> ${expected}`);
  } else if (cname.kind === 'none') missing.push(`no CNAME record ${domain.name} -> ${expected}`);
  else unsure = true;
  if (missing.length) return { status: 'absent', message: `DNS has ${missing.join(' and ')}` };
  if (unsure) return { status: 'unsure', message: `The DNS lookup for ${domain.name} did not complete; try again shortly` };
  return { status: 'present' };
}

/**
 * Checks in DNS that the name carries this account's TXT challenge (proof of control) and a CNAME to
 * the service's target (traffic routing); then the domain serves links.
 */
export class VerifyDomainUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
    private readonly listener: DomainVerificationListener,
    private readonly config: { target: string },
  ) {}

  async execute(ownerId: string, id: string): Promise<Domain> {
    const domain = await this.domains.findOfOwner(ownerId, id);
    if (!domain) throw new NotFoundError('Domain');
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

export interface RecheckResult {
  checked: number;
  lost: number;
}

/**
 * Re-checks verified domains in DNS, in batches: one whose TXT challenge or CNAME is definitely gone
 * loses its verification (its links stop answering at once, the domain says why and when); a lookup
 * that did not complete changes nothing but the time of the check.
 */
export class RecheckDomainsUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
    private readonly listener: DomainVerificationListener,
    private readonly config: { target: string; batchSize: number },
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

export class DeleteDomainUseCase {
  constructor(
    private readonly domains: DomainRepository,
    private readonly usage: DomainUsage,
    private readonly listener: DomainVerificationListener,
  ) {}

  async execute(ownerId: string, id: string): Promise<void> {
    const domain = await this.domains.findOfOwner(ownerId, id);
    if (!domain) throw new NotFoundError('Domain');
    const links = await this.usage.linksUsing(ownerId, id);
    if (links > 0) throw ValidationError.field('id', `links still use this domain (${links}); move or delete them first`);
    await this.domains.deleteOfOwner(ownerId, id);
    // A verified name stops being a custom domain: every instance's host cache forgets it at once.
    if (domain.isVerified) this.listener.verificationChanged(domain.name);
  }
}
