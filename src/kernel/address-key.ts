// The key every limit counted per client address uses (sign-in, pairing, the published site's forms,
// identity-provider registrations). An IPv4 address is one sender. An IPv6 sender usually holds a
// whole /64 (RFC 7421 §1: the /64 is the standard size of one subnet, and one host may pick any
// interface identifier in it, RFC 8981), so counting full IPv6 addresses would hand one host 2^64
// allowances. An IPv4-mapped IPv6 address is its IPv4 address, so both spellings share one count.
import ipaddr from 'ipaddr.js';

/** What one sender controls: an IPv4 address, or an IPv6 /64 as `a:b:c:d::/64`. */
export function addressKey(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return address;
  const ip = ipaddr.process(bare);
  if (ip.kind() === 'ipv4') return ip.toString();
  return `${(ip as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
