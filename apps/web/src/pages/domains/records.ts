import type { Domain } from '@lnk/sdk';

/** One DNS record as a person types it into their DNS provider's form. */
export interface DnsRow {
  type: string;
  name: string;
  value: string;
}

/**
 * The records a domain needs, from what the API answers: the route (the CNAME of `dnsRecord`, "CNAME
 * <target>"), the A/AAAA alternative where a CNAME cannot stand (a zone apex; empty when the service
 * names no addresses), and the TXT record that proves the name is this account's.
 */
export function recordsToPublish(domain: Pick<Domain, 'name' | 'dnsRecord' | 'addressRecords' | 'verification'>): {
  route: DnsRow;
  apex: DnsRow[];
  proof: DnsRow;
} {
  const [type = 'CNAME', ...rest] = domain.dnsRecord.trim().split(/\s+/);
  return {
    route: { type, name: domain.name, value: rest.join(' ') },
    apex: domain.addressRecords.map((record) => ({ type: record.type, name: domain.name, value: record.value })),
    proof: { type: domain.verification.type, name: domain.verification.name, value: domain.verification.value },
  };
}

export type DomainState =
  { kind: 'verified'; since: string | null } | { kind: 'pending' } | { kind: 'lost'; since: string; reason: string };

/**
 * Where a domain stands: verified; waiting for its records (never verified); or verified once and then
 * lost, when a re-check found a record gone (its links stop answering on it until it is verified again).
 */
export function domainState(
  domain: Pick<Domain, 'isVerified' | 'verifiedAt' | 'verificationLostAt' | 'verificationLostReason'>,
): DomainState {
  if (domain.isVerified) return { kind: 'verified', since: domain.verifiedAt };
  if (domain.verificationLostAt)
    return { kind: 'lost', since: domain.verificationLostAt, reason: domain.verificationLostReason ?? 'A DNS record it needs is gone.' };
  return { kind: 'pending' };
}
