// A plain tools/list or tools/call on the 2025 wire is answered without a per-request SDK server and
// transport. The answer itself comes from the functions the SDK's handlers call too (their behaviour on
// both wires: test/mcp/tool-answers.test.ts); what is the direct path's own, and checked here against an
// endpoint that sends everything through the SDK, is its JSON-RPC framing (result, protocol error,
// request id, status, content type) and what it takes: a request it does not cover (progress, odd
// params, batches, other versions or Accept, anything not a plain 2025 request) goes to the SDK.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMcpEndpoint } from '../../src/mcp/endpoint.js';
import { type Principal, authInfoFor } from '../../src/mcp/principal.js';
import { ENDPOINT_KEY, answerOf, callerPrincipal, mcpPost } from '../helpers/endpoint.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const call = (name: string, args?: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name, ...(args === undefined ? {} : { arguments: args }), ...extra },
});
const list = (id: string | number = 1) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const unbound: Principal = {
  kind: 'unbound',
  key: 'oauth:x',
  clientId: 'client-1',
  scopes: ['site:read', 'content:write'],
};

function endpoints() {
  const routes: string[] = [];
  const direct = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { onRoute: (r) => routes.push(r) });
  const sdk = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { fastPaths: false });
  return { routes, direct, sdk };
}

it('frames results, protocol errors and request ids exactly as the SDK does', async () => {
  const { routes, direct, sdk } = endpoints();
  const d = s.demo;
  const p = await callerPrincipal(s, d.tokens.default);
  const all = await callerPrincipal(s, d.tokens.all);
  const cases: Array<[Principal, unknown, string]> = [
    [all, list(), 'direct-list'],
    [all, { ...list('req-1'), params: {} }, 'direct-list'],
    [unbound, list(2), 'direct-list'],
    [p, call('get_page', { pageId: d.pages.about }), 'direct-call'],
    [p, { ...call('get_page', { pageId: d.pages.about }), id: 'req-9' }, 'direct-call'],
    [p, call('get_site_overview'), 'direct-call'],
    [p, call('get_page', { pageId: d.pages.about }, { _meta: { 'vendor/trace': 'abc' } }), 'direct-call'],
    // A refusal and invalid input are tool results.
    [p, call('get_page', { pageId: '00000000-0000-4000-8000-000000000000' }), 'direct-call'],
    [p, call('get_page', { pageId: 42 }), 'direct-call'],
    // An unknown tool is a protocol error, not a tool result.
    [p, call('no_such_tool', {}), 'direct-call'],
    [unbound, call('no_such_tool', {}), 'direct-call'],
    // The steps only a person can take, on a wire that cannot elicit: refusals naming the page.
    [p, call('confirm_pending_action', { planId: '00000000-0000-4000-8000-000000000000' }), 'direct-call'],
    [unbound, call('get_page', { pageId: d.pages.about }), 'direct-call'],
  ];
  for (const [who, body, route] of cases) {
    const authInfo = authInfoFor(who);
    routes.length = 0;
    const a = await answerOf(await direct.fetch(mcpPost(body), { authInfo }));
    const b = await answerOf(await sdk.fetch(mcpPost(body), { authInfo }));
    expect(a.status).toBe(200);
    expect(a.status).toBe(b.status);
    expect(a.type).toBe(b.type);
    expect(JSON.parse(a.body)).toEqual(JSON.parse(b.body));
    expect(routes).toEqual([route]);
  }
  const unknown = await direct.fetch(mcpPost(call('no_such_tool', {})), { authInfo: authInfoFor(p) });
  expect((await unknown.json()).error.code).toBe(-32602);
});

it('leaves to the SDK what it does not cover', async () => {
  const { routes, direct, sdk } = endpoints();
  const p = await callerPrincipal(s, s.demo.tokens.all);
  const page = { pageId: s.demo.pages.about };
  const cases: Array<[unknown, Record<string, string>?]> = [
    // Progress needs the SDK's stream; odd params its checks.
    [call('get_page', page, { _meta: { progressToken: 'p1' } })],
    [call('get_page', [1, 2])],
    [call('get_page', page, { task: { ttl: 1000 } })],
    [{ ...list(), params: { cursor: 'abc' } }],
    [[call('get_page', page)]],
    [[list()]],
    [call('get_page', page), { 'mcp-protocol-version': '1999-01-01' }],
    [list(), { 'mcp-protocol-version': '1999-01-01' }],
    [call('get_page', page), { accept: 'application/json' }],
    [list(), { accept: 'application/json' }],
    [{ ...list(), jsonrpc: '1.0' }],
    // Not 2025 requests at all, so the direct path must not take them: the SDK's strict request schema
    // refuses a member more or a malformed reserved `_meta` key; a 2026 header without the envelope is
    // refused; the 2026 envelope is served by the modern leg.
    [{ ...call('get_page', page), extra: 1 }],
    [{ ...list(), params: {}, extra: 1 }],
    [call('get_page', page, { _meta: { 'io.modelcontextprotocol/related-task': 5 } })],
    [call('get_page', page), { 'mcp-protocol-version': '2026-07-28' }],
    [
      call('get_page', page, {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      }),
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_page' },
    ],
  ];
  for (const [body, headers] of cases) {
    const authInfo = authInfoFor(p);
    routes.length = 0;
    const a = await answerOf(await direct.fetch(mcpPost(body, headers), { authInfo }));
    const b = await answerOf(await sdk.fetch(mcpPost(body, headers), { authInfo }));
    expect(a.status).toBe(b.status);
    expect(a.type).toBe(b.type);
    if (a.type?.includes('json')) expect(JSON.parse(a.body)).toEqual(JSON.parse(b.body));
    else expect(a.body.replace(/id: .*\n/g, '')).toBe(b.body.replace(/id: .*\n/g, ''));
    // The SDK's legacy leg, or the modern leg and the refusals before it (no route reported).
    expect(routes.filter((r) => r !== 'sdk')).toEqual([]);
  }
});
