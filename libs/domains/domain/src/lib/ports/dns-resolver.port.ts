export type DnsAnswer = { kind: 'cname'; targets: string[] } | { kind: 'none' } | { kind: 'timeout' } | { kind: 'error'; message: string };

/** TXT records of a name, each record's strings joined. */
export type TxtAnswer = { kind: 'txt'; records: string[] } | { kind: 'none' } | { kind: 'timeout' } | { kind: 'error'; message: string };

/** A or AAAA records of a name (a CNAME followed), each address in its canonical text form (IPv6 compressed, lower case). */
export type AddressAnswer =
  { kind: 'addresses'; addresses: string[] } | { kind: 'none' } | { kind: 'timeout' } | { kind: 'error'; message: string };

export abstract class DnsResolver {
  abstract cnameOf(name: string): Promise<DnsAnswer>;
  abstract txtOf(name: string): Promise<TxtAnswer>;
  abstract addressesOf(name: string, type: 'A' | 'AAAA'): Promise<AddressAnswer>;
}
