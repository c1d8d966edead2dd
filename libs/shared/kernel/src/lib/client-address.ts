const HEXTET = /^[0-9a-f]{1,4}$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function hextetsOf(address: string): string[] | null {
  let text = address;
  const embedded = IPV4.exec(text.slice(text.lastIndexOf(':') + 1));
  if (embedded) {
    // A trailing dotted IPv4 part (::ffff:192.0.2.1) stands for the last two groups.
    const [a, b, c, d] = embedded.slice(1).map(Number);
    text = `${text.slice(0, text.lastIndexOf(':') + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail];
  return groups.every((g) => HEXTET.test(g)) ? groups.map((g) => parseInt(g, 16).toString(16)) : null;
}

/**
 * The key that throttles count a client address under. An IPv4 address is its own key; an IPv6 address
 * counts as its /64 network (`2001:db8:1:2::/64`), because one subscriber is usually given a whole /64
 * and could otherwise take a fresh address, and a fresh budget, for every attempt. An IPv4-mapped IPv6
 * address (`::ffff:192.0.2.1`) counts as the IPv4 address; anything unparsable counts as itself.
 */
export function clientAddressKey(address: string): string {
  const text = address.trim().toLowerCase().replace(/%.*$/, '');
  if (!text.includes(':')) return text;
  const groups = hextetsOf(text);
  if (!groups) return text;
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const [high, low] = [parseInt(groups[6], 16), parseInt(groups[7], 16)];
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}
