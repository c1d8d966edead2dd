/**
 * A request's host as short URLs are told apart by it: lower-case, and without the one trailing dot a
 * fully qualified name may carry ("alice.example.org." is alice.example.org, and must not be a host the
 * service does not know, answered from another namespace). `host` has its port and IPv6 brackets taken off.
 */
export function shortUrlHost(host: string): string {
  const name = host.toLowerCase();
  return name.endsWith('.') ? name.slice(0, -1) : name;
}
