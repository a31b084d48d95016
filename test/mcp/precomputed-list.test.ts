// tools/list on the 2025 wire is answered from a list serialised once per (scopes, role, areas,
// grant) (issue 17 item 3). The precomputed answer must be exactly what the SDK path answers for the
// same request and principal, for every filter; requests it does not cover go to the SDK unchanged.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { companies } from '../../src/db/schema.js';
import { createMcpEndpoint } from '../../src/mcp/endpoint.js';
import { type Principal, authInfoFor } from '../../src/mcp/principal.js';
import { ENDPOINT_KEY, answerOf, callerPrincipal, mcpPost } from '../helpers/endpoint.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

async function both(principal: Principal, body: unknown, headers?: Record<string, string>) {
  const fast = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY);
  const sdk = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { fastPaths: false });
  const authInfo = authInfoFor(principal);
  const a = await fast.fetch(mcpPost(body, headers), { authInfo });
  const b = await sdk.fetch(mcpPost(body, headers), { authInfo });
  return { fast: await answerOf(a), sdk: await answerOf(b) };
}

it('answers exactly as the SDK does, for every filter a connection can have', async () => {
  const d = await s.seed();
  const principals: Principal[] = [
    await callerPrincipal(s, d.tokens.all),
    await callerPrincipal(s, d.tokens.default),
    await callerPrincipal(s, d.tokens.workspace),
    await callerPrincipal(s, d.tokens.other),
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
  const all = await callerPrincipal(s, d.tokens.all);
  const before = JSON.parse((await both(all, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).fast.body);
  await s.sg.deps.services.db
    .update(companies)
    .set({ withheldAreas: ['content'] })
    .where(eq(companies.id, d.companyId));
  const { fast, sdk } = await both(await callerPrincipal(s, d.tokens.all), {
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
  const p = await callerPrincipal(s, s.demo.tokens.all);
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
