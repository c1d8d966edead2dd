import ipaddr from 'ipaddr.js';

/**
 * Refused even with WEBHOOKS_ALLOW_PRIVATE=true: link-local addresses, where cloud metadata services
 * answer (169.254.169.254, AWS's fd00:ec2::254), with their IPv4-mapped IPv6 forms.
 */
export const ALWAYS_DENIED_RANGES = ['169.254.0.0/16', '::ffff:169.254.0.0/112', 'fe80::/10', 'fd00:ec2::254/128'];

const denied = ALWAYS_DENIED_RANGES.map((cidr) => ipaddr.parseCIDR(cidr));

/**
 * Whether a webhook may be sent to this address. Without `allowPrivate` only public unicast addresses
 * pass (ipaddr.js's `unicast` range: not loopback, private, link-local, unique-local, CGNAT, multicast,
 * reserved...), as request-filtering-agent decides at connect time; the unspecified address and
 * ALWAYS_DENIED_RANGES never pass. Which rule refused it is not told: no answer names an address.
 */
export function isAllowedAddress(address: string, allowPrivate: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it is.
  const plain = ipaddr.process(address);
  for (const candidate of [parsed, plain]) {
    if (denied.some(([range, bits]) => candidate.kind() === range.kind() && candidate.match(range, bits))) return false;
  }
  const range = plain.range();
  if (range === 'unspecified') return false;
  return allowPrivate || range === 'unicast';
}
