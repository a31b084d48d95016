// A plain tools/call on the 2025 wire goes straight to callTool, without a per-request SDK server and
// transport (issue 17). Its answer must be exactly what the SDK path answers for the same request and
// principal: reads, refusals of every kind, invalid input, writes. What it does not cover (progress,
// unknown tools, approvals, unbound clients, malformed params, batches) goes to the SDK unchanged.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activity } from '../../src/db/schema.js';
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

it('answers reads, refusals and invalid input exactly as the SDK path does', async () => {
  const routes: string[] = [];
  const fast = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { onRoute: (r) => routes.push(r) });
  const sdk = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { fastPaths: false });
  const d = s.demo;
  const def = await callerPrincipal(s, d.tokens.default);
  const other = await callerPrincipal(s, d.tokens.other);
  const cases: Array<[Principal, unknown]> = [
    [def, call('get_page', { pageId: d.pages.about })],
    [def, call('list_pages', {})],
    [def, call('get_site_overview')],
    // Refusals: not found, another workspace's page, invalid input, unknown key, missing scope.
    [def, call('get_page', { pageId: '00000000-0000-4000-8000-000000000000' })],
    [other, call('get_page', { pageId: d.pages.about })],
    [def, call('get_page', { pageId: 42 })],
    [def, call('get_page', { pageId: d.pages.about, surprise: true })],
    [
      other,
      call('update_section_text', {
        pageId: d.pages.home,
        sectionId: d.sections.hero,
        text: { heading: 'x' },
      }),
    ],
    [def, call('get_page', { pageId: d.pages.about }, { _meta: { 'vendor/trace': 'abc' } })],
  ];
  for (const [p, body] of cases) {
    const authInfo = authInfoFor(p);
    const a = await answerOf(await fast.fetch(mcpPost(body), { authInfo }));
    const b = await answerOf(await sdk.fetch(mcpPost(body), { authInfo }));
    expect(a.status).toBe(200);
    expect(a.type).toBe(b.type);
    expect(JSON.parse(a.body)).toEqual(JSON.parse(b.body));
  }
  expect(routes).toEqual(cases.map(() => 'direct-call'));
  // String ids come back as strings.
  const asString = { ...call('get_page', { pageId: d.pages.about }), id: 'req-9' };
  const a = await answerOf(await fast.fetch(mcpPost(asString), { authInfo: authInfoFor(def) }));
  expect(JSON.parse(a.body).id).toBe('req-9');
});

it('makes a write the same way: the change, its Activity line and the answer', async () => {
  const d = await s.seed();
  const p = await callerPrincipal(s, d.tokens.default);
  const fast = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY);
  const sdk = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { fastPaths: false });
  const write = (text: string) =>
    call('update_section_text', {
      pageId: d.pages.home,
      sectionId: d.sections.hero,
      text: { heading: text },
    });
  const a = JSON.parse(
    (await answerOf(await fast.fetch(mcpPost(write('Fast path')), { authInfo: authInfoFor(p) }))).body,
  );
  const b = JSON.parse(
    (await answerOf(await sdk.fetch(mcpPost(write('SDK path')), { authInfo: authInfoFor(p) }))).body,
  );
  expect(a.result.isError).toBeUndefined();
  expect(b.result.isError).toBeUndefined();
  expect(Object.keys(a.result).sort()).toEqual(Object.keys(b.result).sort());
  expect(Object.keys(a.result.structuredContent.data ?? {}).sort()).toEqual(
    Object.keys(b.result.structuredContent.data ?? {}).sort(),
  );
  const page = await s.call(d.tokens.default, 'get_page', { pageId: d.pages.home });
  expect(JSON.stringify(page)).toContain('SDK path');
  // Each path wrote its Activity line in the write's transaction: two lines, both allowed.
  const lines = await s.sg.deps.services.db
    .select({ outcome: activity.outcome })
    .from(activity)
    .where(and(eq(activity.companyId, d.companyId), eq(activity.tool, 'update_section_text')));
  expect(lines.map((l) => l.outcome)).toEqual(['allowed', 'allowed']);
});

it('leaves to the SDK what needs it: unknown tools, progress, approvals, unbound clients, odd params', async () => {
  const p = await callerPrincipal(s, s.demo.tokens.default);
  const routes: string[] = [];
  const fast = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { onRoute: (r) => routes.push(r) });
  const sdk = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { fastPaths: false });
  const unbound: Principal = { kind: 'unbound', key: 'oauth:x', clientId: 'client-1', scopes: ['site:read'] };
  const page = { pageId: s.demo.pages.about };
  const cases: Array<[Principal, unknown, Record<string, string>?]> = [
    // A protocol error, not a result.
    [p, call('no_such_tool', {})],
    [p, call('get_page', [1, 2])],
    [p, call('get_page', page, { task: { ttl: 1000 } })],
    [p, call('get_page', page, { _meta: { progressToken: 'p1' } })],
    [p, call('confirm_pending_action', { planId: '00000000-0000-4000-8000-000000000000' })],
    [unbound, call('get_page', page)],
    [p, [call('get_page', page)]],
    [p, call('get_page', page), { 'mcp-protocol-version': '1999-01-01' }],
    [p, call('get_page', page), { accept: 'application/json' }],
    // Not 2025 requests at all, so the fast paths must not take them: the SDK's strict request schema
    // refuses a member more or a malformed reserved `_meta` key; a 2026 header without the envelope is
    // refused; the 2026 envelope is served by the modern leg.
    [p, { ...call('get_page', page), extra: 1 }],
    [p, { ...call('tools/list'), method: 'tools/list', params: {}, extra: 1 }],
    [p, call('get_page', page, { _meta: { 'io.modelcontextprotocol/related-task': 5 } })],
    [p, call('get_page', page), { 'mcp-protocol-version': '2026-07-28' }],
    [
      p,
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
  for (const [who, body, headers] of cases) {
    const authInfo = authInfoFor(who);
    routes.length = 0;
    const a = await answerOf(await fast.fetch(mcpPost(body, headers), { authInfo }));
    const b = await answerOf(await sdk.fetch(mcpPost(body, headers), { authInfo }));
    expect(a.status).toBe(b.status);
    expect(a.type).toBe(b.type);
    if (a.type?.includes('json')) expect(JSON.parse(a.body)).toEqual(JSON.parse(b.body));
    else expect(a.body.replace(/id: .*\n/g, '')).toBe(b.body.replace(/id: .*\n/g, ''));
    // The SDK's legacy leg, or the modern leg and the refusals before it (no route reported).
    expect(routes.filter((r) => r !== 'sdk')).toEqual([]);
  }
  // The unknown tool is refused as a protocol error on both paths, not as a tool result.
  const unknown = await answerOf(
    await fast.fetch(mcpPost(call('no_such_tool', {})), { authInfo: authInfoFor(p) }),
  );
  expect(JSON.parse(unknown.body).error.code).toBe(-32602);
});
