import { ValidationError } from '@lnk/shared/kernel';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** The longest name DNS carries (RFC 1035), in its ASCII form. */
export const MAX_DOMAIN_NAME_LENGTH = 253;

/**
 * A host name as stored and compared: lowercased, without a trailing dot, internationalised labels in
 * punycode. Not an address, not with a port, path or wildcard. Problems are reported on `field`.
 */
function hostName(value: unknown, field: string): string {
  const invalid = (why: string) => ValidationError.field(field, why);
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} is required`);
  const raw = value.trim().toLowerCase().replace(/\.$/, '');
  if (/[/:@?#\s*[\]\\]/.test(raw)) throw invalid(`${field} must be a bare host name: no scheme, port, path or wildcard`);
  let ascii: string;
  try {
    // WHATWG URL parsing turns internationalised names into punycode (and refuses invalid ones).
    ascii = new URL(`http://${raw}`).hostname;
  } catch {
    throw invalid(`${field} must be a valid host name`);
  }
  if (ascii.length > MAX_DOMAIN_NAME_LENGTH) throw invalid(`${field} must be at most ${MAX_DOMAIN_NAME_LENGTH} characters`);
  const labels = ascii.split('.');
  if (labels.some((l) => !LABEL.test(l))) throw invalid(`each part of the ${field} must be 1-63 letters, digits or inner hyphens`);
  if (/^\d+$/.test(labels[labels.length - 1])) throw invalid(`${field} must be a host name, not an IP address`);
  return ascii;
}

/**
 * A custom domain's name as stored: a fully qualified host name, lowercased, without a trailing dot,
 * internationalised labels in punycode. Not an address, not with a port or path, not the service's own.
 */
export function normalizeDomainName(value: unknown, ownHosts: readonly string[]): string {
  const ascii = hostName(value, 'name');
  if (!ascii.includes('.')) throw ValidationError.field('name', 'name must be a fully qualified domain name, like links.example.com');
  for (const own of ownHosts) {
    if (ascii === own || ascii.endsWith(`.${own}`)) throw ValidationError.field('name', 'name may not be a domain of this service');
  }
  return ascii;
}

/** The host a TLS proxy asks a certificate for (`domain`), in the form names are stored in; a single label (localhost) too. */
export function certificateHostOf(value: unknown): string {
  return hostName(value, 'domain');
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
