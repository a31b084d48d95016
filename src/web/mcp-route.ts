// /api/mcp: DNS-rebinding guard, bearer authentication at the edge, then the MCP handler (SDK v2,
// both protocol eras). RFC 9728 protected-resource metadata is served beside it; a missing or bad
// token gets 401 with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` (RFC 9728 §5.1,
// RFC 6750 §3, MCP authorization spec "scope selection"). A verified OAuth token whose client the
// owner has not bound yet is let through as an `unbound` principal: never dead-ended (R-AUTH-5).
import { createHmac } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { Caller } from '../kernel/caller.js';
import { callerForToken } from '../auth/connections.js';
import { delegationKey } from '../auth/oauth/delegation.js';
import { looksLikeApiToken, sha256Hex } from '../kernel/tokens.js';
import type { Config } from '../config.js';
import { SCOPES, normaliseScopes } from '../kernel/scopes.js';
import { type Principal, authInfoFor, principalKey } from '../mcp/principal.js';
import { createMcpEndpoint, failedAtEdge } from '../mcp/endpoint.js';
import { currentRequestId } from '../ops/request-context.js';
import { mcpApps } from './apps/index.js';
import type { AppDeps } from './deps.js';

const MCP_PATH = '/api/mcp';

function metadataUrl(base: string): string {
  return `${base}/.well-known/oauth-protected-resource${MCP_PATH}`;
}

/** Hosts this server answers MCP for: BASE_URL's host and loopback names on our port. */
export function allowedHosts(base: string, port: number): Set<string> {
  const b = new URL(base);
  return new Set([b.host, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** The key signing multi-round-trip requestState: derived from the delegation key, shared by processes. */
function requestStateKey(config: Config): Uint8Array {
  return createHmac('sha256', delegationKey(config)).update('sitegate/mcp-request-state/v1').digest();
}

/** The JSON-RPC error body the edge answers with before any MCP code runs. */
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

export function mountMcp(app: Hono, deps: AppDeps): void {
  const { config } = deps.services;
  const hosts = allowedHosts(config.baseUrl, config.port);
  const origins = new Set([...hosts].flatMap((h) => [`http://${h}`, `https://${h}`]));
  const endpoint =
    deps.mcpEndpoint ?? createMcpEndpoint(deps, requestStateKey(config), { apps: mcpApps(deps) });

  const metadata = () => ({
    resource: `${config.baseUrl}${MCP_PATH}`,
    authorization_servers: config.oauthIssuer ? [config.oauthIssuer] : [],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Sitegate',
    resource_documentation: `${config.baseUrl}/`,
  });
  app.get(`/.well-known/oauth-protected-resource${MCP_PATH}`, (c) => c.json(metadata()));
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(metadata()));

  // The scopes a client should ask for: all of them. The owner still unticks any on the connect page,
  // and the binding, not the token, is the ceiling of what the client may do (R-TOOL-1).
  const challenge = `scope="${SCOPES.join(' ')}"`;
  // A token that was sent but names no one: the caller did authenticate, so "send a token" would
  // mislead. RFC 6750 §3.1 `invalid_token` with a description, and the same words in the JSON-RPC
  // body. A never-valid token and a revoked one get the same words: the answer must not reveal
  // whether a token ever existed. The description is ASCII without quotes (RFC 6750 §3 grammar).
  const invalidApiToken = `This token is not valid: it may have been revoked or replaced. Make a new one at ${config.baseUrl}/settings/advanced/developers`;
  const invalidAccessToken = 'This access token is not valid or has expired: sign in again.';
  const unauthorized = (c: Context, invalid?: string) => {
    const parts = [`resource_metadata="${metadataUrl(config.baseUrl)}"`, challenge];
    if (invalid) parts.unshift('error="invalid_token"', `error_description="${invalid}"`);
    c.header('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
    const message = invalid ?? 'Authentication required: send Authorization: Bearer <token>.';
    return c.json(rpcError(-32001, message), 401);
  };

  /** The principal a bearer token names, or null when it names none (401). */
  const authenticate = async (token: string): Promise<Principal | { limited: number } | null> => {
    if (looksLikeApiToken(token)) {
      const caller: Caller | null = await deps.caches.caller(sha256Hex(token), () =>
        callerForToken(deps.services.db, token),
      );
      return caller ? { kind: 'caller', caller, key: principalKey(caller) } : null;
    }
    const outcome = deps.oauth ? await deps.oauth.authenticate(token) : null;
    if (!outcome) return null;
    if (outcome.kind === 'rate_limited') return { limited: outcome.seconds };
    const key = principalKey({ binding: outcome.binding });
    if (outcome.kind === 'caller') return { kind: 'caller', caller: outcome.caller, key };
    return {
      kind: 'unbound',
      key,
      clientId: outcome.clientId,
      connectCode: outcome.connectCode,
      scopes: normaliseScopes(outcome.scopes),
    };
  };

  app.all(MCP_PATH, async (c) => {
    // DNS rebinding protection (MCP transport spec, security warning): Host and Origin must be ours.
    const host = c.req.header('host') ?? '';
    const origin = c.req.header('origin');
    if (!hosts.has(host) || (origin !== undefined && !origins.has(origin))) {
      return c.json(rpcError(-32000, 'Forbidden host or origin.'), 403);
    }
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    if (!m) return unauthorized(c);
    let principal: Awaited<ReturnType<typeof authenticate>>;
    try {
      principal = await authenticate(m[1]!);
    } catch (err) {
      // Who the token is could not be read (the database failed or ran out of time): the call is
      // answered as a failed one, with its request id, not as a bare server error.
      deps.services.log.error({ err }, 'authentication failed');
      return failedAtEdge(c.req.raw, currentRequestId() ?? '-', err);
    }
    if (!principal) return unauthorized(c, looksLikeApiToken(m[1]!) ? invalidApiToken : invalidAccessToken);
    if ('limited' in principal) {
      c.header('Retry-After', String(principal.limited));
      return c.json(rpcError(-32000, `Too many requests; retry in ${principal.limited} s.`), 429);
    }
    // The endpoint reads the body (bounded), routes by protocol era and validates the protocol headers.
    return endpoint.fetch(c.req.raw, { authInfo: authInfoFor(principal) });
  });
}
