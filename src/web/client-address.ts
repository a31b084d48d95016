// The client's address, decided once per request at the edge: the connected peer,
// or, when the peer is one of the TRUST_PROXY proxies, the address they forwarded
// (src/kernel/trusted-proxies.ts). Every per-address limit reads this value: sign-in, pairing, the
// published site's forms.
//
// Nothing else is taken from forwarding headers: the cookies' Secure flag and the public scheme
// follow BASE_URL alone, so X-Forwarded-Proto and X-Forwarded-Host are never read.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { clientFrom, compileTrust } from '../kernel/trusted-proxies.js';

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

/** Mounted first: records the request's client address for every later handler. */
export function resolveClientAddress(trustedProxies: string[]): MiddlewareHandler {
  const trust = compileTrust(trustedProxies);
  return async (c, next) => {
    c.set('clientAddress', clientFrom(socketAddress(c), c.req.header('x-forwarded-for'), trust));
    await next();
  };
}

/** The request's client address (see above); the socket's peer where the edge middleware did not run. */
export function clientAddress(c: Context): string {
  return c.get('clientAddress') ?? socketAddress(c);
}
