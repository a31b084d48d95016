// The client's address (issue 11 item 9), decided once per request at the edge. Without TRUST_PROXY
// it is the connected socket's peer: headers are the client's to write, so X-Forwarded-For is ignored.
// With TRUST_PROXY=1 (Sitegate is reachable only through its TLS-terminating proxy, docs/operating.md)
// it is the right-most X-Forwarded-For entry: the one the proxy appended for the peer it saw. Entries
// to its left came from the client and are never believed. Every per-address limit reads this value:
// sign-in, pairing, the published site's forms.
import { getConnInfo } from '@hono/node-server/conninfo';
import ipaddr from 'ipaddr.js';
import type { Context, MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    clientAddress: string;
  }
}

function socketAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The address the trusted proxy appended, or null when the header holds none that parses. */
export function forwardedFor(header: string | undefined): string | null {
  const last = header?.split(',').pop()?.trim();
  if (!last || !ipaddr.isValid(last)) return null;
  const addr = ipaddr.parse(last);
  // An IPv4-mapped IPv6 address is the IPv4 client, so both spellings share one limit.
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address().toString()
    : addr.toString();
}

/** Mounted first: records the request's client address for every later handler. */
export function resolveClientAddress(trustProxy: boolean): MiddlewareHandler {
  return async (c, next) => {
    const peer = socketAddress(c);
    c.set('clientAddress', (trustProxy && forwardedFor(c.req.header('x-forwarded-for'))) || peer);
    await next();
  };
}

/** The request's client address (see above); the socket's peer where the edge middleware did not run. */
export function clientAddress(c: Context): string {
  return c.get('clientAddress') ?? socketAddress(c);
}
