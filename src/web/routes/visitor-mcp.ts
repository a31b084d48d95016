// The published site's MCP endpoint for visitors' AI assistants: `/sites/<id>/_api/mcp` on the
// service's host and `/_api/mcp` at the root of a verified custom domain (a visitor route of the
// published site, served from customDomainSites in ./site.ts). No token. The edge here does what
// /api/mcp's edge does for an anonymous caller: DNS-rebinding protection (MCP transport spec, security
// warning: Host and Origin must be this site's), then the sender's per-address allowance (this
// request's point; each further call of a JSON-RPC batch takes its own in src/mcp/visitor/server.ts), then the
// live site (404 when unpublished, deleted or switched off by the owner). Page slugs cannot contain
// `_` (src/domain/pages/write.ts), so no page can shadow the path.
import type { Context, Hono } from 'hono';
import { requestAllowance } from '../../domain/visitor-agent/visits.js';
import { visitorSite } from '../../domain/visitor-agent/site.js';
import { createVisitorEndpoint, tooManyRequests, visitorAuthInfo } from '../../mcp/visitor/server.js';
import type { AppDeps } from '../deps.js';
import { clientAddress } from '../client-address.js';
import { allowedHosts } from '../mcp-route.js';
import { visitorDepsOf } from './visitor-deps.js';

export const VISITOR_MCP_PATH = '/_api/mcp';

const ID = /^[A-Za-z0-9_]{1,64}$/;
const rpcError = (c: Context, status: 403 | 404 | 429, message: string) =>
  c.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, status);

/** Where a site's endpoint is asked for: on the service's host, or at a custom domain's root. */
export type VisitorMcpRef = { websiteId: string } & ({ ownHost: true } | { ownHost: false; host: string });

export function visitorMcp(deps: AppDeps) {
  const { config, db, clock, log } = deps.services;
  const hosts = allowedHosts(config.baseUrl, config.port);
  const origins = new Set([...hosts].flatMap((h) => [`http://${h}`, `https://${h}`]));
  const scheme = new URL(config.baseUrl).protocol;
  const base = config.baseUrl.replace(/\/+$/, '');
  const visitorDeps = visitorDepsOf(deps);
  const limits = { ...visitorDeps.limits, readsPerMinute: config.visitorMcpReadsPerMinute };
  const endpoint = createVisitorEndpoint(log);

  return async (c: Context, ref: VisitorMcpRef): Promise<Response> => {
    const host = (c.req.header('host') ?? '').toLowerCase();
    const origin = c.req.header('origin');
    const ours = ref.ownHost
      ? hosts.has(host) && (origin === undefined || origins.has(origin))
      : origin === undefined || origin === `https://${host}` || origin === `http://${host}`;
    if (!ours) return rpcError(c, 403, 'Forbidden host or origin.');
    const address = clientAddress(c);
    // The request's point pays for its first call; the calls of a batch past it take their own.
    const allowance = requestAllowance(limits, visitorDeps.keys, address, clock());
    const wait = await allowance.admit();
    if (wait) {
      c.header('Retry-After', String(wait));
      return rpcError(c, 429, tooManyRequests(wait));
    }
    const site = ID.test(ref.websiteId) ? await visitorSite(db, ref.websiteId) : null;
    if (!site) return rpcError(c, 404, 'There is no assistant endpoint here.');
    const siteUrl = ref.ownHost ? `${base}/sites/${ref.websiteId}` : `${scheme}//${ref.host}`;
    const call = {
      site,
      at: { siteUrl, assetOrigin: ref.ownHost ? base : siteUrl },
      visitor: { address, userAgent: c.req.header('user-agent') ?? '' },
      deps: visitorDeps,
      allowance,
    };
    const res = await endpoint.fetch(c.req.raw, { authInfo: visitorAuthInfo(call) });
    res.headers.set('Cache-Control', 'no-store');
    return res;
  };
}

export function mountVisitorMcp(app: Hono, deps: AppDeps): void {
  const serve = visitorMcp(deps);
  app.all(`/sites/:websiteId${VISITOR_MCP_PATH}`, (c) =>
    serve(c, { websiteId: c.req.param('websiteId'), ownHost: true }),
  );
}
