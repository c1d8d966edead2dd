import { Domain } from '../model/domain.entity';
import { DnsResolver } from '../ports/dns-resolver.port';

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
