// /api/mcp's protocol side (after the HTTP edge authenticated the caller): one stateless endpoint for
// both protocol eras, built once per process on the official SDK v2.
// - 2026-07-28: `createMcpHandler` (server/discover, the per-request `_meta` envelope, the
//   MCP-Protocol-Version / Mcp-Method / Mcp-Name checks with -32020/-32022/-32602, resultType, 404 for
//   unknown methods), in strict mode.
// - 2025 revisions (initialize, then calls, on any process): routed with the SDK's own `isLegacyRequest`
//   to a per-request streamable HTTP transport, as the SDK documents for hand-wired compositions, so a
//   plain call is answered with one JSON body and only a call that asked for progress streams (SSE).
//   A plain tools/list or tools/call that can only be 2025 (`plainRequest`) is answered before that,
//   from the functions the SDK's handlers call too (tool-answers.ts): only the framing is done here.
// The body is read once, bounded, before anything is parsed; both legs use the same server factory.
// `protocolEndpoint` is that plumbing alone, shared with the published sites' endpoint for visitors'
// assistants (src/mcp/visitor/server.ts); the owners' fast paths are added here as its `shortcut`.
import {
  type AuthInfo,
  type ListToolsResult,
  type McpHandlerRequestOptions,
  ProtocolError,
  type Server,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  readRequestBody,
  SUPPORTED_PROTOCOL_VERSIONS,
  classifyInboundRequest,
} from '@modelcontextprotocol/server';
import { PORTABLE_CAPS } from '../portable/schema.js';
import type { McpApps } from './apps/apps.js';
import { appsRequested, appsSessionFor } from './apps/extension.js';
import type { CallDeps } from './call.js';
import { failureResult, failureText, refusalResult } from './envelope.js';
import { stepCodec } from './human-steps.js';
import { principalOf } from './principal.js';
import { serverFactory } from './server.js';
import { type HumanSteps, callToolAnswer, listTools } from './tool-answers.js';
import { isUnavailable } from '../db/failures.js';
import { unavailable } from '../kernel/errors.js';

/** An import payload at its byte cap plus room for the JSON-RPC envelope around it. */
export const MAX_MCP_BODY_BYTES = PORTABLE_CAPS.bytes + 1024 * 1024;

export type McpEndpoint = {
  fetch(request: Request, options: McpHandlerRequestOptions): Promise<Response>;
};

/**
 * The body as text, or null past the cap. A declared length is checked before anything is read and
 * the body is then read in one piece (on @hono/node-server straight from the socket, without a web
 * stream); a streamed body is counted as it arrives and abandoned at the cap.
 */
async function readBounded(request: Request): Promise<string | null> {
  const length = request.headers.get('content-length');
  if (length === null || request.headers.has('transfer-encoding')) {
    const read = await readRequestBody(request, MAX_MCP_BODY_BYTES);
    return read.tooLarge ? null : read.text;
  }
  if (!(Number(length) <= MAX_MCP_BODY_BYTES)) return null;
  const text = await request.text();
  return Buffer.byteLength(text) > MAX_MCP_BODY_BYTES ? null : text;
}

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

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The protocol versions a claim-less request may name in its header and still be on the 2025 wire,
 * asked of the SDK's own classifier once.
 */
const LEGACY_HEADER_VERSIONS = new Set(
  SUPPORTED_PROTOCOL_VERSIONS.filter(
    (v) =>
      classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: v,
        body: { jsonrpc: '2.0', id: 0, method: 'tools/list' },
      }).kind === 'legacy',
  ),
);

/** The members of a JSON-RPC request: the SDK's request schema is strict, anything more is refused. */
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * `_meta` keys that make the SDK do something of its own: progress, and every reserved key (the 2026
 * envelope, related-task), which its schemas check.
 */
const sdkMetaKey = (k: string) => k === 'progressToken' || k.startsWith('io.modelcontextprotocol/');

type PlainRequest = { id: string | number; params: Record<string, unknown> };

/**
 * A lone 2025-wire request for `method` that the SDK would answer from our handler alone, with
 * nothing of its own to add: only a request's members, params holding only `allowed` keys and a
 * `_meta` without progress or reserved keys, a legacy protocol version or none, an Accept it takes.
 * Such a request is one the SDK classifies as legacy (no envelope claim, no modern header, a valid
 * JSON-RPC request: test/mcp/direct-answers.test.ts), so it is taken without asking the SDK's classifier,
 * whose failed zod parses were the largest source of promoted garbage per read. Anything else goes
 * to the SDK.
 */
function plainRequest(
  request: Request,
  body: unknown,
  method: string,
  allowed: string[],
): PlainRequest | null {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== method) return null;
  for (const key in body) if (!REQUEST_KEYS.has(key)) return null;
  const { id } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return null;
  const params = body.params ?? {};
  if (!isPlainObject(params)) return null;
  for (const key of Object.keys(params)) if (key !== '_meta' && !allowed.includes(key)) return null;
  const meta = params._meta;
  if (meta !== undefined && (!isPlainObject(meta) || Object.keys(meta).some(sdkMetaKey))) return null;
  const accept = request.headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && !LEGACY_HEADER_VERSIONS.has(version)) return null;
  return { id: id as string | number, params };
}

/** The JSON-RPC answer the SDK's JSON response mode sends, with the result serialised once. */
function rpcResult(id: string | number, result: string | Buffer): Response {
  const head = '{"result":';
  const tail = `,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  const body =
    typeof result === 'string'
      ? head + result + tail
      : Buffer.concat([Buffer.from(head), result, Buffer.from(tail)]);
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}

/**
 * The answer to a request the edge could not authenticate because the database failed or ran out of
 * time. Nothing ran yet. A lone 2025-wire tools/call gets the result callTool gives: the `unavailable`
 * refusal when the database did not answer in time, else the failure with its request id; anything
 * else a JSON-RPC internal error with the same words.
 */
export async function failedAtEdge(request: Request, requestId: string, err: unknown): Promise<Response> {
  const away = isUnavailable(err) ? unavailable() : null;
  let body: unknown = null;
  try {
    const text = isJsonContentType(request.headers.get('content-type')) ? await readBounded(request) : null;
    body = text === null ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  const call = plainRequest(request, body, 'tools/call', ['name', 'arguments']);
  if (call) {
    return rpcResult(call.id, JSON.stringify(away ? refusalResult(away) : failureResult(requestId)));
  }
  const id = (body as { id?: unknown } | null)?.id;
  return Response.json(
    {
      jsonrpc: '2.0',
      error: { code: -32603, message: away ? `${away.message} ${away.hint}` : failureText(requestId) },
      id: typeof id === 'string' || Number.isSafeInteger(id) ? id : null,
    },
    { status: 503, headers: { 'Retry-After': '1' } },
  );
}

export type ServerBuilder = (authInfo: AuthInfo | undefined) => Server;

/**
 * The protocol side every MCP endpoint of this service shares (the owners' /api/mcp and the published
 * sites' endpoint for visitors' assistants): the bounded body read, 2026-07-28 through
 * `createMcpHandler` in strict mode, the 2025 revisions through a per-request stateless transport,
 * both from the one server factory. `shortcut` may answer a parsed request before the SDK does (the
 * owners' fast paths); null hands it on.
 */
export function protocolEndpoint(
  build: ServerBuilder,
  opts: {
    log: { debug(obj: object, msg: string): void };
    shortcut?: (request: Request, body: unknown, authInfo?: AuthInfo) => Promise<Response | null>;
    onRoute?: (route: 'sdk') => void;
    /**
     * For a 2025-wire body: a session-id generator when its initialize is to be answered with one
     * (src/mcp/apps/extension.ts); the transport stays stateless either way.
     */
    legacySession?: (body: unknown) => (() => string) | undefined;
  },
): McpEndpoint {
  const modern = createMcpHandler((ctx) => build(ctx.authInfo), {
    legacy: 'reject',
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
    onerror: (err) => opts.log.debug({ err }, 'mcp request refused'),
  });

  const legacy = async (request: Request, body: unknown, authInfo?: AuthInfo) => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: opts.legacySession?.(body),
      enableJsonResponse: !wantsProgress(body),
    });
    await build(authInfo).connect(transport);
    // No close() afterwards: with a JSON answer nothing is left open, and closing aborts signals
    // for every request (a measurable share of CPU under load). An SSE stream ends by itself.
    return transport.handleRequest(request, { parsedBody: body, authInfo });
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
      const text = await readBounded(request);
      if (text === null) return rpcError(413, -32000, 'Request body too large.');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return rpcError(400, -32700, 'Parse error');
      }
      const early = opts.shortcut && (await opts.shortcut(request, body, authInfo));
      if (early) return early;
      if (await isLegacyRequest(request, body)) {
        opts.onRoute?.('sdk');
        return legacy(request, body, authInfo);
      }
      return modern.fetch(request, { authInfo, parsedBody: body });
    },
  };
}

/** The JSON-RPC error the SDK sends for a ProtocolError its handler threw: code, message, any data. */
function rpcProtocolError(id: string | number, err: ProtocolError): Response {
  const error = {
    code: err.code,
    message: err.message,
    ...(err.data !== undefined ? { data: err.data } : {}),
  };
  return Response.json({ jsonrpc: '2.0', id, error });
}

/**
 * Serialises a tools/list answer once per distinct `tools` array (the registry keeps one per set of
 * listing facts), not per request: the answer is copied, never re-encoded.
 */
const listJson = new WeakMap<object, Buffer>();
function serialisedList(result: ListToolsResult): Buffer {
  let bytes = listJson.get(result.tools);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(result));
    listJson.set(result.tools, bytes);
  }
  return bytes;
}

export function createMcpEndpoint(
  deps: CallDeps,
  stateKey: Uint8Array,
  opts: {
    /** false: every request goes through the SDK (the reference the direct answers are framed like). */
    fastPaths?: boolean;
    /** Sees which path answered each POST (tests and benchmarks). */
    onRoute?: (route: 'direct-list' | 'direct-call' | 'sdk') => void;
    /** The MCP Apps answers (src/web/apps/), for the clients that render them. */
    apps?: McpApps;
  } = {},
): McpEndpoint {
  const steps: HumanSteps = { base: deps.services.config.baseUrl, codec: stepCodec(stateKey) };

  /**
   * A plain tools/list or tools/call on the 2025 wire, answered without building a server and a
   * transport for it. The SDK's handlers and these answers call the same functions (tool-answers.ts),
   * so only the JSON-RPC framing is done here, as the SDK's JSON response mode frames it. What needs
   * the SDK's context (progress) or its checks (malformed params) is left to it: null hands it on.
   */
  const shortcut = async (request: Request, body: unknown, authInfo?: AuthInfo) => {
    const apps = opts.apps && appsRequested(request) ? opts.apps : null;
    const list = plainRequest(request, body, 'tools/list', []);
    if (list) {
      opts.onRoute?.('direct-list');
      return rpcResult(list.id, serialisedList(await listTools(deps, principalOf(authInfo), apps)));
    }
    const call = plainRequest(request, body, 'tools/call', ['name', 'arguments']);
    if (!call) return null;
    const { name, arguments: args } = call.params;
    if (typeof name !== 'string' || (args !== undefined && !isPlainObject(args))) return null;
    opts.onRoute?.('direct-call');
    try {
      // The SDK's 2025 projection is the identity for our envelopes (an object structuredContent
      // beside its text), so the answer goes out as it is.
      const answer = await callToolAnswer(deps, steps, principalOf(authInfo), name, args, undefined, apps);
      return rpcResult(call.id, JSON.stringify(answer));
    } catch (err) {
      // A protocol error (an unknown tool) is an answer; anything else is the edge's to handle.
      if (err instanceof ProtocolError) return rpcProtocolError(call.id, err);
      throw err;
    }
  };

  return protocolEndpoint(serverFactory(deps, steps, opts.apps), {
    log: deps.services.log,
    ...(opts.fastPaths !== false ? { shortcut } : {}),
    onRoute: opts.onRoute,
    ...(opts.apps ? { legacySession: appsSessionFor } : {}),
  });
}
