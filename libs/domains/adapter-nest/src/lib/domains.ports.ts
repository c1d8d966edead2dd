import { ChallengeGenerator, DnsResolver, DomainRepository, DomainUsage, DomainVerificationListener } from '@lnk/domains/domain';
import { Clock, IdGenerator, QuotaPolicy } from '@lnk/shared/kernel';
import type { Token } from '@lnk/shared/http';

/**
 * Every port the domains use cases need, by the name the app binds it under (DomainsPorts), each provided
 * in DomainsModule under its abstract class: the use cases are built from them by class, and the app's
 * composition root binds them all in one typed object, so a port left unbound does not compile.
 */
export const DOMAINS_PORTS = {
  domains: DomainRepository,
  /** Billing's limits. */
  quota: QuotaPolicy,
  ids: IdGenerator,
  challenges: ChallengeGenerator,
  clock: Clock,
  dns: DnsResolver,
  /** Told of each domain verified or no longer: the redirect cache and the TLS asks' answers, on every instance. */
  changes: DomainVerificationListener,
  /** The links context's links on a domain, through a bridge: a domain in use is not deleted. */
  usage: DomainUsage,
};

/** What the app binds each of DOMAINS_PORTS to. */
export type DomainsPorts = { readonly [K in keyof typeof DOMAINS_PORTS]: (typeof DOMAINS_PORTS)[K] extends Token<infer T> ? T : never };
