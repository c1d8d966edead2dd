import { boolean, dateTime, described, id, named, nullable, object, oneOfValues, string } from '../../openapi/schema';

export const DomainSchema = named(
  'Domain',
  object({
    id,
    name: string,
    isVerified: boolean,
    createdAt: dateTime,
    dnsRecord: described(string, 'the CNAME that routes the name to the service'),
    verification: described(
      object({ type: oneOfValues('TXT'), name: described(string, '_lnk-challenge.<name>'), value: described(string, "this account's challenge for the name") }),
      'the TXT record that proves control of the name: verification needs it and the CNAME; both are re-checked while verified',
    ),
    verifiedAt: nullable(dateTime),
    verificationLostAt: described(nullable(dateTime), 'when a re-check found a record gone and took the verification away; null again once verified'),
    verificationLostReason: described(nullable(string), 'which expected record the re-check did not find'),
  }),
);
export const VerifiedDomainSchema = object({ id, name: string, isVerified: boolean, verifiedAt: nullable(dateTime) });
