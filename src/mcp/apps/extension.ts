// Whether the client on the other end renders MCP Apps (R-APP-1), on both protocol revisions. A client
// declares the extension in its capabilities: `extensions["io.modelcontextprotocol/ui"].mimeTypes`
// naming `text/html;profile=mcp-app` (MCP Apps specification, "Client<>Server Capability Negotiation").
// - 2026-07-28: every request carries the client's capabilities in its `_meta` envelope; read there.
// - 2025 revisions: only `initialize` carries them, and this server keeps no session. An initialize that
//   declares the extension is answered with an `Mcp-Session-Id` saying so (MCP 2025-11-25, transports,
//   "Session Management": the client sends it with every later request). It is a random id with a
//   fixed prefix, not state: any process reads it, and it grants nothing, since any client may declare
//   the extension itself. A client that declares nothing gets no session id, as before the apps.
import { randomUUID } from 'node:crypto';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** The extension as this server declares it in its own capabilities. */
export const APPS_EXTENSION = { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } };

/** True when these capabilities declare the MCP Apps extension with the HTML app type. */
export function declaresApps(caps: ClientCapabilities | null | undefined): boolean {
  // Read by hand rather than with ext-apps' getUiCapability: the value is the client's JSON, and a
  // `mimeTypes` that is a string must not pass through String.prototype.includes.
  const ui = (caps?.extensions as Record<string, unknown> | undefined)?.[EXTENSION_ID] as
    | { mimeTypes?: unknown }
    | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(RESOURCE_MIME_TYPE);
}

const SESSION_PREFIX = 'sitegate-apps.';
const SESSION_ID = /^sitegate-apps\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * For a 2025-wire request body: the session-id generator to answer it with when it is an initialize
 * that declares the extension, else undefined (the stateless answer, no session id).
 */
export function appsSessionFor(body: unknown): (() => string) | undefined {
  const msg = body as { method?: unknown; params?: { capabilities?: ClientCapabilities } } | null;
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg) || msg.method !== 'initialize') {
    return undefined;
  }
  return declaresApps(msg.params?.capabilities) ? () => `${SESSION_PREFIX}${randomUUID()}` : undefined;
}

/**
 * True when the client of this request renders apps: the 2026-07-28 envelope when the request has one,
 * else the session id a 2025 initialize was answered with. `request` is the HTTP request when the
 * endpoint answers by itself; the SDK's handlers pass their context, which holds it.
 */
export function appsRequested(request: Request | undefined, ctx?: ServerContext): boolean {
  const envelope = ctx?.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope && CLIENT_CAPABILITIES_META_KEY in envelope) {
    return declaresApps(envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities);
  }
  const id = (request ?? ctx?.http?.req)?.headers.get('mcp-session-id');
  return typeof id === 'string' && SESSION_ID.test(id);
}
