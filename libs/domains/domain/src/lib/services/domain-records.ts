import { Domain } from '../model/domain.entity';
import { AddressAnswer, DnsResolver } from '../ports/dns-resolver.port';

const bare = (host: string) => host.toLowerCase().replace(/\.$/, '');

/** What DNS shows of a domain's two records: both there, one definitely missing, or no sure answer. */
export type RecordCheck = { status: 'present' } | { status: 'absent'; message: string } | { status: 'unsure'; message: string };

/**
 * Where a custom domain must send its traffic: a CNAME to the service's target host, or (where a CNAME
 * cannot stand, at a zone apex) A/AAAA records all among the service's own addresses; none configured,
 * only the CNAME does.
 */
export interface RoutingTarget {
  host: string;
  /** Canonical text forms (as the DnsResolver answers them). */
  addresses: readonly string[];
}

type Found = 'present' | 'absent' | 'unsure';

/**
 * Traffic reaches the service when every A and AAAA record of the name is one of its addresses (and there
 * is at least one): an address elsewhere would send some visitors elsewhere. Both families must answer.
 */
function addressesRoute(a: AddressAnswer, aaaa: AddressAnswer, ours: readonly string[]): Found {
  const found = [a, aaaa].flatMap((answer) => (answer.kind === 'addresses' ? answer.addresses : []));
  if (found.some((address) => !ours.includes(address))) return 'absent';
  if (a.kind === 'timeout' || a.kind === 'error' || aaaa.kind === 'timeout' || aaaa.kind === 'error') return 'unsure';
  return found.length > 0 ? 'present' : 'absent';
}

/**
 * Looks for the domain's TXT challenge and its route to the service (a CNAME to the target, or A/AAAA
 * records at the target's addresses). Messages name only the expected records that were not found:
 * never what the resolver returned, nor its error codes, so verification is no DNS lookup tool through
 * the server.
 */
export async function checkDomainRecords(dns: DnsResolver, domain: Domain, target: RoutingTarget): Promise<RecordCheck> {
  const expected = bare(target.host);
  const [txt, cname] = await Promise.all([dns.txtOf(domain.challengeName), dns.cnameOf(domain.name)]);
  const missing: string[] = [];
  let unsure = false;
  if (txt.kind === 'txt') {
    if (!txt.records.some((r) => r.trim() === domain.challenge))
      missing.push(`no TXT record ${domain.challengeName} with this domain's challenge`);
  } else if (txt.kind === 'none') missing.push(`no TXT record ${domain.challengeName} with this domain's challenge`);
  else unsure = true;

  let route: Found =
    cname.kind === 'cname'
      ? cname.targets.map(bare).includes(expected)
        ? 'present'
        : 'absent'
      : cname.kind === 'none'
        ? 'absent'
        : 'unsure';
  // Asked only when the CNAME does not route the name: most domains are not at an apex.
  if (route !== 'present' && target.addresses.length > 0) {
    const [a, aaaa] = await Promise.all([dns.addressesOf(domain.name, 'A'), dns.addressesOf(domain.name, 'AAAA')]);
    const byAddress = addressesRoute(a, aaaa, target.addresses);
    route = byAddress === 'present' ? 'present' : route === 'unsure' || byAddress === 'unsure' ? 'unsure' : 'absent';
  }
  if (route === 'absent') {
    const byAddress = target.addresses.length ? ` nor A/AAAA records pointing only at ${target.addresses.join(', ')}` : '';
    missing.push(`no CNAME record ${domain.name} -> ${expected}${byAddress}`);
  } else if (route === 'unsure') unsure = true;

  if (missing.length) return { status: 'absent', message: `DNS has ${missing.join(' and ')}` };
  if (unsure) return { status: 'unsure', message: `The DNS lookup for ${domain.name} did not complete; try again shortly` };
  return { status: 'present' };
}
