// HTTP side of canonical addresses (R-DOM-4): GET/HEAD on a connected,
// non-primary hostname of a published site answers 301 to the same path on the primary hostname.
// Requests for the service's own host (BASE_URL, loopback) skip the look-up entirely.
import type { MiddlewareHandler } from 'hono';
import { canonicalHostFor } from '../domain/domains/redirect.js';
import type { AppDeps } from './deps.js';
import { customHost } from '../kernel/custom-host.js';

export function domainRedirect(deps: AppDeps): MiddlewareHandler {
  const own = new URL(deps.services.config.baseUrl).hostname.toLowerCase();
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const host = customHost(c.req.header('host'), own);
    if (!host) return next();
    const target = await canonicalHostFor(deps.services.db, host);
    if (!target) return next();
    const url = new URL(c.req.url);
    return c.redirect(`https://${target}${url.pathname}${url.search}`, 301);
  };
}
