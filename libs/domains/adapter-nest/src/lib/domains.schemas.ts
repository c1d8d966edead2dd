import { boolean, dateTime, described, id, list, named, nullable, object, oneOfValues, string } from '@lnk/shared/http';

export const DomainSchema = named(
  'Domain',
  object({
    id,
    name: string,
    isVerified: boolean,
    createdAt: dateTime,
    dnsRecord: described(string, 'the CNAME that routes the name to the service'),
    addressRecords: described(
      list(object({ type: oneOfValues('A', 'AAAA'), value: described(string, 'an address of the service') })),
      'where a CNAME cannot stand (a zone apex): A/AAAA records that route the name instead of dnsRecord, every A/AAAA record ' +
        'of the name being one of these; empty when the service names no addresses (DNS_TARGET_ADDRESSES)',
    ),
    verification: described(
      object({
        type: oneOfValues('TXT'),
        name: described(string, '_lnk-challenge.<name>'),
        value: described(string, "this account's challenge for the name"),
      }),
      'the TXT record that proves control of the name: verification needs it and the CNAME (or the address records); ' +
        'both are re-checked while verified',
    ),
    verifiedAt: nullable(dateTime),
    verificationLostAt: described(
      nullable(dateTime),
      'when a re-check found a record gone and took the verification away; null again once verified',
    ),
    verificationLostReason: described(nullable(string), 'which expected record the re-check did not find'),
  }),
);
export const VerifiedDomainSchema = object({ id, name: string, isVerified: boolean, verifiedAt: nullable(dateTime) });
export const CertificateHostSchema = object({ domain: described(string, 'the host, normalised (lower case, no trailing dot, punycode)') });
