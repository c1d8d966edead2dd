import { ValidationError } from '@lnk/shared/kernel';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const invalid = (why: string) => ValidationError.field('name', why);

/**
 * A custom domain's name as stored: a fully qualified host name, lowercased, without a trailing dot,
 * internationalised labels in punycode. Not an address, not with a port or path, not the service's own.
 */
export function normalizeDomainName(value: unknown, ownHosts: readonly string[]): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid('name is required');
  const raw = value.trim().toLowerCase().replace(/\.$/, '');
  if (/[/:@?#\s*[\]\\]/.test(raw)) throw invalid('name must be a bare host name: no scheme, port, path or wildcard');
  let ascii: string;
  try {
    // WHATWG URL parsing turns internationalised names into punycode (and refuses invalid ones).
    ascii = new URL(`http://${raw}`).hostname;
  } catch {
    throw invalid('name must be a valid host name');
  }
  if (ascii.length > 253) throw invalid('name must be at most 253 characters');
  const labels = ascii.split('.');
  if (labels.length < 2) throw invalid('name must be a fully qualified domain name, like links.example.com');
  if (labels.some((l) => !LABEL.test(l))) throw invalid('each part of the name must be 1-63 letters, digits or inner hyphens');
  if (/^\d+$/.test(labels[labels.length - 1])) throw invalid('name must be a host name, not an IP address');
  for (const own of ownHosts) {
    if (ascii === own || ascii.endsWith(`.${own}`)) throw invalid('name may not be a domain of this service');
  }
  return ascii;
}

/** What the owner must configure in DNS (spec 2.11). */
export function dnsRecordFor(target: string): string {
  return `CNAME ${target}`;
}

export interface AddressRecord {
  type: 'A' | 'AAAA';
  value: string;
}

/** What an owner configures instead of the CNAME where one cannot stand (a zone apex): the service's addresses. */
export function addressRecordsFor(addresses: readonly string[]): AddressRecord[] {
  return addresses.map((value) => ({ type: value.includes(':') ? 'AAAA' : 'A', value }));
}
