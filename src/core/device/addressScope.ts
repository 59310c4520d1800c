/**
 * Where an address can be reached from: a phone on the same
 * network reaches a private address (10/8, 172.16/12, 192.168/16, 100.64/10, and
 * IPv6 unique-local fc00::/7); a global address (public IPv4, IPv6 2000::/3) can be
 * reached from the whole internet unless a firewall says otherwise, so it is never
 * listed as "on this network".
 */
export type AddressScope = 'network' | 'internet';

export function addressScope(address: string): AddressScope {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(address);
  if (v4) return privateIpv4(Number(v4[1]), Number(v4[2])) ? 'network' : 'internet';
  const first = Number.parseInt(address.split(':')[0] || '0', 16);
  // fc00::/7 (unique local) and fe80::/10 (link local) stay on the network; anything else may be global.
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 ? 'network' : 'internet';
}

/** Whether an IPv4 address whose first two bytes are `a.b` is private: 10/8, 172.16/12, 192.168/16, 100.64/10 (shared), 169.254/16 (link local). */
export function privateIpv4(a: number, b: number): boolean {
  return (
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254)
  );
}
