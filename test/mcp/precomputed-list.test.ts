// tools/list on the 2025 wire is answered from a list serialised once per (scopes, role, areas,
// grant) (issue 17 item 3). The precomputed answer must be exactly what the SDK path answers for the
// same request and principal, for every filter; requests it does not cover go to the SDK unchanged.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callerForToken } from '../../src/auth/connections.js';
import { companies } from '../../src/db/schema.js';
import { createMcpEndpoint } from '../../src/mcp/endpoint.js';
import { type Principal, authInfoFor, principalKey } from '../../src/mcp/principal.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const KEY = new Uint8Array(32).fill(7);

function request(body: unknown, headers: Record<string, string> = {}) {
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

async function both(principal: Principal, body: unknown, headers?: Record<string, string>) {
  const fast = createMcpEndpoint(s.sg.deps, KEY);
  const sdk = createMcpEndpoint(s.sg.deps, KEY, { fastPaths: false });
  const authInfo = authInfoFor(principal);
  const a = await fast.fetch(request(body, headers), { authInfo });
  const b = await sdk.fetch(request(body, headers), { authInfo });
  return {
    fast: { status: a.status, type: a.headers.get('content-type'), body: await a.text() },
    sdk: { status: b.status, type: b.headers.get('content-type'), body: await b.text() },
  };
}

async function callerPrincipal(token: string): Promise<Principal> {
  const caller = (await callerForToken(s.sg.deps.services.db, token))!;
  return { kind: 'caller', caller, key: principalKey(caller) };
}

it('answers exactly as the SDK does, for every filter a connection can have', async () => {
  const d = await s.seed();
  const principals: Principal[] = [
    await callerPrincipal(d.tokens.all),
    await callerPrincipal(d.tokens.default),
    await callerPrincipal(d.tokens.workspace),
    await callerPrincipal(d.tokens.other),
    { kind: 'unbound', key: 'oauth:x', clientId: 'client-1', scopes: ['site:read', 'content:write'] },
  ];
  for (const [i, p] of principals.entries()) {
    for (const id of [i + 1, `req-${i}`]) {
      const { fast, sdk } = await both(p, { jsonrpc: '2.0', id, method: 'tools/list' });
      expect(fast.status).toBe(200);
      expect(fast.type).toBe(sdk.type);
      expect(JSON.parse(fast.body)).toEqual(JSON.parse(sdk.body));
    }
  }
  // A withheld area changes the list, and the precomputed answer follows.
  const all = await callerPrincipal(d.tokens.all);
  const before = JSON.parse((await both(all, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).fast.body);
  await s.sg.deps.services.db
    .update(companies)
    .set({ withheldAreas: ['content'] })
    .where(eq(companies.id, d.companyId));
  const { fast, sdk } = await both(await callerPrincipal(d.tokens.all), {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: {},
  });
  expect(JSON.parse(fast.body)).toEqual(JSON.parse(sdk.body));
  const names = (b: { result: { tools: Array<{ name: string }> } }) => b.result.tools.map((t) => t.name);
  expect(names(JSON.parse(fast.body))).not.toContain('update_section_text');
  expect(names(before)).toContain('update_section_text');
});

it('leaves what it does not cover to the SDK: unknown versions, a wrong Accept, cursors, batches', async () => {
  const p = await callerPrincipal(s.demo.tokens.all);
  const cases: Array<[unknown, Record<string, string>?]> = [
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '1999-01-01' }],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json' }],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'abc' } }],
    [[{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]],
    [{ jsonrpc: '1.0', id: 1, method: 'tools/list' }],
  ];
  for (const [body, headers] of cases) {
    const { fast, sdk } = await both(p, body, headers);
    expect(fast.status).toBe(sdk.status);
    expect(fast.body).toBe(sdk.body);
  }
});
