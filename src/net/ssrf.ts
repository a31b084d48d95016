// Server-side request forgery guard (R-MIG-2):
// only http(s); the host name is resolved once per host and pinned; every resolved address and the
// connected socket's remote address must be public unicast (ipaddr.js range() === 'unicast'), which
// refuses private, loopback, link-local (metadata 169.254.169.254), CGNAT, multicast, unspecified,
// reserved, IPv4-mapped IPv6 (unwrapped first) and unique-local ranges. Decimal/octal/hex IPv4
// spellings are normalised by the WHATWG URL parser before any check. The one way past these defaults
// is the operator's explicit host:port allow-list (CRAWL_ALLOW_HOSTS, empty by default): a staging
// copy on a private network, or a test's fixture site. Only the exact host and port listed are let
// through; every other port of that host, and every other private address, stays refused.
import { Resolver as DnsResolver, lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';
import { Refusal } from '../kernel/errors.js';

/** Resolves a host name to its addresses (injectable for tests). */
export type Resolver = (hostname: string) => Promise<string[]>;

export type GuardOptions = {
  /** `host:port` entries allowed even on non-public addresses (the operator's CRAWL_ALLOW_HOSTS). */
  allowHosts?: readonly string[];
  resolve?: Resolver;
  connectTimeoutMs?: number;
};

const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Asks the given DNS servers (`ip:port`) directly for A and AAAA records. */
export function dnsServerResolver(servers: string[]): Resolver {
  const r = new DnsResolver({ timeout: 3_000, tries: 1 });
  r.setServers(servers);
  return async (host) => {
    const [a, aaaa] = await Promise.all([r.resolve4(host).catch(() => []), r.resolve6(host).catch(() => [])]);
    return [...a, ...aaaa];
  };
}

export function unsafeUrl(message: string): Refusal {
  return new Refusal(
    'unsafe_url',
    message,
    'Only public http:// and https:// addresses can be fetched; private, local and metadata addresses are refused. To migrate a site on a private network (a staging copy), the operator of this Sitegate adds its host:port to CRAWL_ALLOW_HOSTS.',
  );
}

/** Thrown from the connect step; fetchers turn it into the unsafe_url refusal. */
class UnsafeAddressError extends Error {
  constructor(readonly address: string) {
    super('connection to a non-public address refused');
    this.name = 'UnsafeAddressError';
  }
}

/** True only for public unicast addresses; anything unparsable or special is refused. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return false;
  const addr = ipaddr.process(bare); // unwraps ::ffff:a.b.c.d to IPv4
  if (addr.range() !== 'unicast') return false;
  if (addr.kind() === 'ipv6') {
    // NAT64 / 6to4 / Teredo can tunnel to internal IPv4 space; 'unicast' in ipaddr is the catch-all.
    const s = addr.toNormalizedString();
    if (s.startsWith('64:ff9b:') || s.startsWith('2002:') || s.startsWith('2001:0:')) return false;
  }
  return true;
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

function hostKey(hostname: string, port: string | number, protocol = 'http:'): string {
  const p = String(port || defaultPort(protocol));
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return `${h.includes(':') ? `[${h}]` : h}:${p}`;
}

export type Guard = {
  /** Parses and checks an address; throws unsafe_url. Returns the normalised URL. */
  check(raw: string | URL, base?: URL): URL;
  /** Resolves (once per host, pinned) and checks every address; throws unsafe_url. */
  pin(url: URL): Promise<string>;
  /** The undici dispatcher whose connect step uses the pinned address and re-checks the socket. */
  agent: Agent;
  allowed(hostname: string, port: string | number, protocol?: string): boolean;
  close(): Promise<void>;
};

export function createGuard(opts: GuardOptions = {}): Guard {
  const allow = new Set((opts.allowHosts ?? []).map((h) => h.toLowerCase()));
  const resolve = opts.resolve ?? systemResolver;
  const pins = new Map<string, Promise<string>>();
  const allowed = (hostname: string, port: string | number, protocol = 'http:') =>
    allow.has(hostKey(hostname, port, protocol));
  // Names on the allow-list may resolve to private addresses; the connect step still lets a socket
  // through only on the listed port (or to a public address).
  const allowedNames = new Set([...allow].map((k) => k.replace(/:\d+$/, '').replace(/^\[|\]$/g, '')));
  const resolveListed = async (hostname: string): Promise<string> => {
    const addrs = await resolve(hostname).catch(() => []);
    if (!addrs[0]) throw unsafeUrl(`The host ${hostname} could not be resolved.`);
    return addrs[0];
  };

  const check = (raw: string | URL, base?: URL): URL => {
    let url: URL;
    try {
      url = typeof raw === 'string' ? new URL(raw.trim(), base) : new URL(raw.href);
    } catch {
      throw unsafeUrl('That is not a valid web address.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw unsafeUrl(
        `The ${url.protocol.replace(':', '')}: scheme is refused; only http and https are fetched.`,
      );
    }
    if (url.username || url.password) throw unsafeUrl('Addresses with credentials are refused.');
    url.hash = '';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (allowed(url.hostname, url.port, url.protocol)) return url;
    if (ipaddr.isValid(host)) {
      if (!isPublicAddress(host)) throw unsafeUrl('That address points to a private or reserved network.');
    } else if (
      !/^[a-z0-9.-]+$/i.test(host) ||
      !host.includes('.') ||
      /\.(localhost|local|internal)\.?$/i.test(host)
    ) {
      throw unsafeUrl('That host name is not a public internet name.');
    }
    return url;
  };

  const pinHost = (hostname: string): Promise<string> => {
    let p = pins.get(hostname);
    if (!p) {
      p = (async () => {
        if (ipaddr.isValid(hostname)) return hostname;
        let addrs: string[];
        try {
          addrs = await resolve(hostname);
        } catch {
          throw unsafeUrl(`The host ${hostname} could not be resolved.`);
        }
        if (addrs.length === 0) throw unsafeUrl(`The host ${hostname} could not be resolved.`);
        // Every answer must be public: a mixed answer is a rebinding attempt.
        if (!addrs.every(isPublicAddress))
          throw unsafeUrl('That host name resolves to a private or reserved address.');
        return addrs[0]!;
      })();
      pins.set(hostname, p);
    }
    return p;
  };

  const pin = async (url: URL): Promise<string> => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (allowed(url.hostname, url.port, url.protocol)) return host;
    return pinHost(host);
  };

  const base = buildConnector({
    timeout: opts.connectTimeoutMs ?? 10_000,
    // net.connect calls this for names (never for literal IPs): answer with the pinned, checked address.
    lookup: ((hostname: string, options: { all?: boolean }, cb: (...a: unknown[]) => void) => {
      (allowedNames.has(hostname.toLowerCase()) ? resolveListed(hostname) : pinHost(hostname)).then(
        (address) => {
          const family = address.includes(':') ? 6 : 4;
          if (options?.all) cb(null, [{ address, family } satisfies LookupAddress]);
          else cb(null, address, family);
        },
        (err) => cb(err),
      );
    }) as never,
  });
  const agent = new Agent({
    connections: 8,
    connect(options, callback) {
      base(options, (err, socket) => {
        if (err || !socket) return callback(err ?? new Error('connect failed'), null);
        const remote = socket.remoteAddress ?? '';
        const ok = allowed(options.hostname, options.port, options.protocol) ? true : isPublicAddress(remote);
        if (!ok) {
          socket.destroy();
          return callback(new UnsafeAddressError(remote), null);
        }
        callback(null, socket);
      });
    },
  });
  return { check, pin, agent, allowed, close: () => agent.close() };
}

/** True when an error (or its cause chain) is the guard's refusal. */
export function isUnsafe(err: unknown): boolean {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as never, i++) {
    if (e instanceof UnsafeAddressError) return true;
    if (e instanceof Refusal && e.code === 'unsafe_url') return true;
  }
  return false;
}
