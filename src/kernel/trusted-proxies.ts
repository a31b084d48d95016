// Which hops of X-Forwarded-For to believe. X-Forwarded-For is anyone's to write, so it is believed
// only as far as the hops that wrote it are trusted proxies: TRUST_PROXY lists their addresses or
// ranges (`127.0.0.1,10.0.0.0/8`, `::1`, `fd00::/8`, or the names `loopback`, `linklocal`,
// `uniquelocal`). Starting from the connected peer, the walk goes right to left through
// X-Forwarded-For past every trusted hop; the first untrusted address is the client. A peer not in the
// list is the client itself, whatever its headers say. This is Express's `trust proxy` rule, done by
// Express's own `proxy-addr`.
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

/** Decides whether a hop is a trusted proxy. */
export type TrustProxy = (address: string) => boolean;

const trustNone: TrustProxy = () => false;

/** The legacy `TRUST_PROXY=1`: a proxy on this machine, the only safe reading of "trust the proxy". */
const LEGACY_TRUST = ['loopback'];

/**
 * Parses a TRUST_PROXY value: empty, `0`, `false` trust nobody; `1`, `true` trust loopback (with a
 * warning at start); otherwise a comma-separated list of addresses, CIDR ranges and range names.
 * Throws on an entry that is not one.
 */
export function parseTrustProxy(raw: string | undefined): { list: string[]; legacy: boolean } {
  const value = (raw ?? '').trim();
  if (value === '' || value === '0' || value === 'false') return { list: [], legacy: false };
  if (value === '1' || value === 'true') return { list: LEGACY_TRUST, legacy: true };
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  proxyaddr.compile(list); // throws "invalid IP address: …" or "invalid range on address: …"
  return { list, legacy: false };
}

export function compileTrust(list: string[]): TrustProxy {
  if (!list.length) return trustNone;
  const trusted = proxyaddr.compile(list);
  return (address) => trusted(address, 0);
}

/** One spelling per address: an IPv4-mapped IPv6 address is the IPv4 client, so both share a limit. */
function canonical(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  const addr = ipaddr.parse(address);
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address().toString()
    : addr.toString();
}

/**
 * The client of a request that arrived from `peer` with this X-Forwarded-For header. When the walk
 * ends on something that is not an address (a client wrote it to the left of a trusted hop that
 * forwarded it unchanged), the nearest trusted hop stands in for the client.
 */
export function clientFrom(peer: string, header: string | undefined, trust: TrustProxy): string {
  // proxy-addr reads a Node request; these are the only two fields it looks at.
  const request = { headers: { 'x-forwarded-for': header }, socket: { remoteAddress: peer } };
  const hops = proxyaddr.all(request as never, trust);
  for (let i = hops.length - 1; i >= 0; i--) {
    const address = canonical(hops[i]!);
    if (address) return address;
  }
  return peer;
}
