// /api/mcp: DNS-rebinding guard, bearer authentication at the edge, then the MCP handler.
// RFC 9728 protected-resource metadata is served beside it; a missing or bad token gets 401 with
// `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 9728 §5.1, MCP authorization spec).
import type { Context, Hono } from 'hono';
import { callerForToken } from '../auth/connections.js';
import { looksLikeApiToken, sha256Hex } from '../auth/tokens.js';
import type { Caller } from '../auth/caller.js';
import { SCOPES } from '../gate/scopes.js';
import { handleMcp } from '../mcp/server.js';
import type { AppDeps } from './deps.js';

export const MCP_PATH = '/api/mcp';

export function metadataUrl(base: string): string {
  return `${base}/.well-known/oauth-protected-resource${MCP_PATH}`;
}

/** Hosts this server answers MCP for: BASE_URL's host and loopback names on our port. */
export function allowedHosts(base: string, port: number): Set<string> {
  const b = new URL(base);
  return new Set([b.host, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function mountMcp(app: Hono, deps: AppDeps): void {
  const { config } = deps.services;
  const hosts = allowedHosts(config.baseUrl, config.port);
  const origins = new Set([...hosts].flatMap((h) => [`http://${h}`, `https://${h}`]));

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

  const unauthorized = (c: Context, error?: string) => {
    const parts = [`resource_metadata="${metadataUrl(config.baseUrl)}"`];
    if (error) parts.unshift(`error="${error}"`);
    c.header('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
    return c.json(
      {
        jsonrpc: '2.0',
        error: { code: -32001, message: 'Authentication required: send Authorization: Bearer <token>.' },
        id: null,
      },
      401,
    );
  };

  app.all(MCP_PATH, async (c) => {
    // DNS rebinding protection (MCP transport spec, security warning): Host and Origin must be ours.
    const host = c.req.header('host') ?? '';
    const origin = c.req.header('origin');
    if (!hosts.has(host) || (origin !== undefined && !origins.has(origin))) {
      return c.json(
        { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden host or origin.' }, id: null },
        403,
      );
    }
    const auth = c.req.header('authorization') ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (!m) return unauthorized(c);
    const token = m[1]!;
    let caller: Caller | null = null;
    if (looksLikeApiToken(token)) {
      caller = await deps.caches.callers.get(sha256Hex(token), () => callerForToken(deps.services.db, token));
    } else if (deps.oauth) {
      const outcome = await deps.oauth.authenticate(token);
      if (outcome?.kind === 'unbound') {
        return c.json(
          {
            jsonrpc: '2.0',
            error: {
              code: -32003,
              message: `This client is signed in but not yet connected to a website. The site owner can connect it at ${config.baseUrl}/dashboard/connect${outcome.connectCode ? ` with the code ${outcome.connectCode}` : ''}`,
            },
            id: null,
          },
          403,
        );
      }
      caller = outcome?.kind === 'caller' ? outcome.caller : null;
    }
    if (!caller) return unauthorized(c, 'invalid_token');
    if (c.req.method !== 'POST') {
      // Stateless server: no standalone SSE stream and no sessions to delete.
      return c.json(
        { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null },
        405,
        {
          Allow: 'POST',
        },
      );
    }
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }, 400);
    }
    return handleMcp(deps, caller, c.req.raw, body);
  });
}
