// Driving createMcpEndpoint directly (no HTTP server): raw 2025-wire requests, and the official SDK v2
// client on either protocol revision, fetching from the endpoint in process as one principal.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { callerForToken } from '../../src/auth/connections.js';
import type { McpEndpoint } from '../../src/mcp/endpoint.js';
import { type Principal, authInfoFor, principalKey } from '../../src/mcp/principal.js';
import { MODERN } from './mcp2026.js';
import type { TestServer } from './server.js';

export const ENDPOINT_KEY = new Uint8Array(32).fill(7);

/** A 2025-wire POST to the MCP endpoint. */
export function mcpPost(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/api/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

export type Answer = { status: number; type: string | null; body: string };
export const answerOf = async (r: Response): Promise<Answer> => ({
  status: r.status,
  type: r.headers.get('content-type'),
  body: await r.text(),
});

/** The principal a bearer token stands for, as the edge builds it. */
export async function callerPrincipal(s: TestServer, token: string): Promise<Principal> {
  const caller = (await callerForToken(s.sg.deps.services.db, token))!;
  return { kind: 'caller', caller, key: principalKey(caller) };
}

export type Wire = '2025-11-25' | typeof MODERN;

/**
 * The SDK v2 client connected to `endpoint` as `principal`: in legacy mode on the 2025 wire
 * (initialize, then plain requests), or pinned to 2026-07-28. No URL elicitation is declared.
 */
export async function clientOn(endpoint: McpEndpoint, principal: Principal, wire: Wire): Promise<Client> {
  const authInfo = authInfoFor(principal);
  const c = new Client(
    { name: 'sitegate-endpoint-test', version: '1.0.0' },
    { versionNegotiation: { mode: wire === MODERN ? { pin: MODERN } : 'legacy' } },
  );
  await c.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/api/mcp'), {
      fetch: (url, init) => endpoint.fetch(new Request(url, init), { authInfo }),
    }),
  );
  return c;
}
