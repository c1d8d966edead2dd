import { domainState, recordsToPublish } from './records';

const domain = {
  name: 'go.ada.test',
  dnsRecord: 'CNAME cname.lnk.test',
  addressRecords: [
    { type: 'A' as const, value: '192.0.2.10' },
    { type: 'AAAA' as const, value: '2001:db8::10' },
  ],
  verification: { type: 'TXT' as const, name: '_lnk-challenge.go.ada.test', value: 'lnk-verify=abc123' },
};

describe('the DNS records a domain page shows', () => {
  it('splits the API\'s "CNAME <target>" into the type and the value a DNS form asks for, named for the domain', () => {
    expect(recordsToPublish(domain).route).toEqual({ type: 'CNAME', name: 'go.ada.test', value: 'cname.lnk.test' });
  });

  it('shows the TXT proof exactly as the API gave it (a changed value would never verify)', () => {
    expect(recordsToPublish(domain).proof).toEqual({ type: 'TXT', name: '_lnk-challenge.go.ada.test', value: 'lnk-verify=abc123' });
  });

  it('offers the apex records only when the service names its addresses', () => {
    expect(recordsToPublish(domain).apex.map((r) => `${r.type} ${r.value}`)).toEqual(['A 192.0.2.10', 'AAAA 2001:db8::10']);
    expect(recordsToPublish({ ...domain, addressRecords: [] }).apex).toEqual([]);
  });
});

describe('where a domain stands', () => {
  const base = { isVerified: false, verifiedAt: null, verificationLostAt: null, verificationLostReason: null };

  it('is waiting for its records until it is first verified', () => {
    expect(domainState(base)).toEqual({ kind: 'pending' });
  });

  it('is verified, with when', () => {
    expect(domainState({ ...base, isVerified: true, verifiedAt: '2026-11-27T10:00:00.000Z' })).toEqual({
      kind: 'verified',
      since: '2026-11-27T10:00:00.000Z',
    });
  });

  it('says verification was lost, when and why, rather than looking like a new domain (its links stopped answering)', () => {
    expect(
      domainState({
        ...base,
        verificationLostAt: '2026-11-27T11:00:00.000Z',
        verificationLostReason: 'DNS has no TXT record _lnk-challenge.go.ada.test',
      }),
    ).toEqual({
      kind: 'lost',
      since: '2026-11-27T11:00:00.000Z',
      reason: 'DNS has no TXT record _lnk-challenge.go.ada.test',
    });
  });
});
