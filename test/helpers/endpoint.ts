// Driving createMcpEndpoint directly (no HTTP server): the fast paths of issue 17 are compared with
// the SDK path on the same request and principal (test/mcp/direct-call, precomputed-list).
import { callerForToken } from '../../src/auth/connections.js';
import { type Principal, principalKey } from '../../src/mcp/principal.js';
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
