// /api/mcp's protocol side (after the HTTP edge authenticated the caller): one stateless endpoint for
// both protocol eras, built once per process on the official SDK v2 (MCP-NOTES.md).
// - 2026-07-28: `createMcpHandler` (server/discover, the per-request `_meta` envelope, the
//   MCP-Protocol-Version / Mcp-Method / Mcp-Name checks with -32020/-32022/-32602, resultType, 404 for
//   unknown methods), in strict mode.
// - 2025 revisions (initialize, then calls, on any process): routed with the SDK's own `isLegacyRequest`
//   to a per-request streamable HTTP transport, as the SDK documents for hand-wired compositions, so a
//   plain call is answered with one JSON body and only a call that asked for progress streams (SSE).
// The body is read once, bounded, before anything is parsed; both legs use the same server factory.
import {
  type AuthInfo,
  type McpHandlerRequestOptions,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  readRequestBody,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { listingFacts } from '../gate/listing.js';
import { PORTABLE_CAPS } from '../portable/schema.js';
import type { CallDeps } from './call.js';
import { principalOf } from './principal.js';
import { UNBOUND_LISTING, serverFactory } from './server.js';

/** An import payload at its byte cap plus room for the JSON-RPC envelope around it. */
export const MAX_MCP_BODY_BYTES = PORTABLE_CAPS.bytes + 1024 * 1024;

export type McpEndpoint = {
  fetch(request: Request, options: McpHandlerRequestOptions): Promise<Response>;
};

const rpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/** True when any JSON-RPC request in the body asks for progress: only then does the 2025 leg stream. */
function wantsProgress(body: unknown): boolean {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.some((m) => {
    const meta = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

/**
 * A lone 2025-wire `tools/list` request the SDK would answer from our handler without anything of
 * its own to add: no cursor, no progress, a protocol version it serves, an Accept it takes.
 */
function plainToolsList(request: Request, body: unknown): body is { id: string | number } {
  const m = body as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown } | null;
  if (!m || typeof m !== 'object' || Array.isArray(m)) return false;
  if (m.jsonrpc !== '2.0' || m.method !== 'tools/list') return false;
  if (typeof m.id !== 'string' && !Number.isSafeInteger(m.id)) return false;
  if (m.params !== undefined) {
    if (!m.params || typeof m.params !== 'object') return false;
    const keys = Object.keys(m.params);
    if (keys.some((k) => k !== '_meta') || wantsProgress(body)) return false;
  }
  const accept = request.headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const version = request.headers.get('mcp-protocol-version');
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

export function createMcpEndpoint(
  deps: CallDeps,
  stateKey: Uint8Array,
  opts: { precomputedLists?: boolean } = {},
): McpEndpoint {
  const build = serverFactory(deps, stateKey);
  const modern = createMcpHandler((ctx) => build(ctx.authInfo), {
    legacy: 'reject',
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
    onerror: (err) => deps.services.log.debug({ err }, 'mcp request refused'),
  });

  const legacy = async (request: Request, body: unknown, authInfo?: AuthInfo) => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !wantsProgress(body),
    });
    await build(authInfo).connect(transport);
    // No close() afterwards: with a JSON answer nothing is left open, and closing aborts signals
    // for every request (measured: ~5% of CPU under load). An SSE stream ends by itself.
    return transport.handleRequest(request, { parsedBody: body, authInfo });
  };

  /**
   * tools/list on the 2025 wire from the answer precomputed per (scopes, role, areas, grant): the
   * same JSON the SDK would send (test/mcp/precomputed-list.test.ts), serialised once, not per call.
   */
  const precomputedList = async (body: { id: string | number }, authInfo?: AuthInfo) => {
    const principal = principalOf(authInfo);
    const tools =
      principal.kind === 'unbound'
        ? deps.registry.listJson(principal, UNBOUND_LISTING)
        : deps.registry.listJson(
            principal.caller,
            await listingFacts(deps.services.db, principal.caller, deps.caches.listing),
          );
    return new Response(`{"result":{"tools":${tools}},"jsonrpc":"2.0","id":${JSON.stringify(body.id)}}`, {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };

  return {
    async fetch(request, { authInfo }) {
      if (request.method !== 'POST') {
        // Stateless: no standalone SSE stream and no sessions to delete (2025); 2026 answers its own.
        if (await isLegacyRequest(request)) return rpcError(405, -32000, 'Method not allowed.');
        return modern.fetch(request, { authInfo });
      }
      if (!isJsonContentType(request.headers.get('content-type'))) {
        return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json.');
      }
      const read = await readRequestBody(request, MAX_MCP_BODY_BYTES);
      if (read.tooLarge) return rpcError(413, -32000, 'Request body too large.');
      let body: unknown;
      try {
        body = JSON.parse(read.text);
      } catch {
        return rpcError(400, -32700, 'Parse error');
      }
      if (await isLegacyRequest(request, body)) {
        if (opts.precomputedLists !== false && plainToolsList(request, body)) {
          return precomputedList(body, authInfo);
        }
        return legacy(request, body, authInfo);
      }
      return modern.fetch(request, { authInfo, parsedBody: body });
    },
  };
}
