import { addressRecordsFor, dnsRecordFor, type Domain } from '@lnk/domains/domain';
import type { Static } from '@lnk/shared/http';
import type { DomainSchema, VerifiedDomainSchema } from './domains.schemas';
import type { DomainsSettings } from './domains.settings';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A custom domain with the records that route it here and prove it is the caller's (spec 4.6). */
export function presentDomain(
  domain: Domain,
  routing: Pick<DomainsSettings, 'dnsTarget' | 'dnsTargetAddresses'>,
): Static<typeof DomainSchema> {
  return {
    id: domain.id,
    name: domain.name,
    isVerified: domain.isVerified,
    createdAt: domain.createdAt.toISOString(),
    dnsRecord: dnsRecordFor(routing.dnsTarget),
    addressRecords: addressRecordsFor(routing.dnsTargetAddresses),
    // Proof that this account controls the name: the value is this account's own, published in DNS.
    verification: { type: 'TXT', name: domain.challengeName, value: domain.challenge },
    verifiedAt: iso(domain.verifiedAt),
    verificationLostAt: iso(domain.verificationLostAt),
    verificationLostReason: domain.verificationLostReason,
  };
}

export function presentVerifiedDomain(domain: Domain): Static<typeof VerifiedDomainSchema> {
  return { id: domain.id, name: domain.name, isVerified: domain.isVerified, verifiedAt: iso(domain.verifiedAt) };
}
