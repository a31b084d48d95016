// MCP Apps clients for tests: the official SDK v2 client declaring the MCP Apps extension (or not), on
// either protocol revision, against a real server; and reading an app tool's answer apart.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { VIEW_META_KEY } from '../../src/mcp/apps/catalogue.js';
import { MODERN } from './mcp2026.js';

export type Wire = '2025-11-25' | typeof MODERN;
export const WIRES: Wire[] = ['2025-11-25', MODERN];

/**
 * The capabilities an MCP Apps host declares (MCP Apps specification, capability negotiation), from
 * the extension package's own constants rather than the server's.
 */
export const APPS_CAPABILITIES = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

/** The SDK v2 client on `wire`, declaring the extension when `apps`. */
export async function appsClient(mcpUrl: string, token: string, wire: Wire, apps: boolean): Promise<Client> {
  const c = new Client(
    { name: apps ? 'sitegate-apps-host' : 'sitegate-plain-client', version: '1.0.0' },
    {
      capabilities: apps ? APPS_CAPABILITIES : {},
      versionNegotiation: { mode: wire === MODERN ? { pin: MODERN } : 'legacy' },
    },
  );
  await c.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return c;
}

/** The view an app answer carries in `_meta`, or undefined. */
export const viewOf = (r: { _meta?: Record<string, unknown> }) =>
  r._meta?.[VIEW_META_KEY] as Record<string, any> | undefined;

/** An answer without its `_meta`: what a client without the extension gets. */
export function withoutMeta<T extends object>(r: T): Omit<T, '_meta'> {
  const { _meta: _m, ...rest } = r as T & { _meta?: unknown };
  return rest;
}
