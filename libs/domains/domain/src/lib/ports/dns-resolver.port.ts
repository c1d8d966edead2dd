export type DnsAnswer = { kind: 'cname'; targets: string[] } | { kind: 'none' } | { kind: 'timeout' } | { kind: 'error'; message: string };

/** TXT records of a name, each record's strings joined. */
export type TxtAnswer = { kind: 'txt'; records: string[] } | { kind: 'none' } | { kind: 'timeout' } | { kind: 'error'; message: string };

export abstract class DnsResolver {
  abstract cnameOf(name: string): Promise<DnsAnswer>;
  abstract txtOf(name: string): Promise<TxtAnswer>;
}
