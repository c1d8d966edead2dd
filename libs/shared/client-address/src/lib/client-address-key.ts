import ipaddr from 'ipaddr.js';

/**
 * The key that throttles count a client address under. An IPv4 address is its own key; an IPv6 address
 * counts as its /64 network (`2001:db8:1:2::/64`), because one subscriber is usually given a whole /64
 * and could otherwise take a fresh address, and a fresh budget, for every attempt. An IPv4-mapped IPv6
 * address (`::ffff:192.0.2.1`) counts as the IPv4 address; anything unparsable counts as itself.
 */
export function clientAddressKey(address: string): string {
  const text = address.trim().toLowerCase().replace(/%.*$/, '');
  // The usual case, and what is no IPv6 address at all: taken as it is, unparsed.
  if (!text.includes(':')) return text;
  if (!ipaddr.IPv6.isValid(text)) return text;
  const parsed = ipaddr.IPv6.parse(text);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  // The first four groups as hexadecimal without leading zeros: the keys already counted in Redis keep their spelling.
  return `${parsed.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
