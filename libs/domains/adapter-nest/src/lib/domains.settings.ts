/**
 * What the domains context takes from the app's configuration, validated there once. An abstract class,
 * so it is the Nest token its consumers inject by (the use cases, the controller's presenter).
 */
export abstract class DomainsSettings {
  /** Host names of the service itself: none may be added as a custom domain. */
  abstract readonly ownHosts: string[];
  /** DNS_TARGET: the host a custom domain's CNAME names. */
  abstract readonly dnsTarget: string;
  /** DNS_TARGET_ADDRESSES: the service's addresses, for a name that cannot have a CNAME (a zone apex). */
  abstract readonly dnsTargetAddresses: string[];
}
