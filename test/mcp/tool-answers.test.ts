// tools/list and tools/call give the same answers on both protocol revisions, through the official SDK
// v2 client: on the 2025 wire (legacy mode) the endpoint answers the plain requests directly, on
// 2026-07-28 the SDK's handlers do, and both get their answers from one place (src/mcp/tool-answers.ts).
// Covered: the listing for every filter a connection can have and its change when an area is
// withheld; reads, refusals, invalid input; an unknown tool (a protocol error, still in Activity); the
// steps only a person can take, for a client that cannot elicit; a write (the change and its one
// Activity line).
import type { Client } from '@modelcontextprotocol/client';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activity, companies } from '../../src/db/schema.js';
import { createMcpEndpoint } from '../../src/mcp/endpoint.js';
import type { Principal } from '../../src/mcp/principal.js';
import { ENDPOINT_KEY, type Wire, callerPrincipal, clientOn } from '../helpers/endpoint.js';
import { MODERN } from '../helpers/mcp2026.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const WIRES: Wire[] = ['2025-11-25', MODERN];
const unbound: Principal = {
  kind: 'unbound',
  key: 'oauth:x',
  clientId: 'client-1',
  scopes: ['site:read', 'content:write'],
};

/** One client per wire for `principal`, and the routes the endpoint took for them. */
async function bothWires(principal: Principal) {
  const routes: string[] = [];
  const endpoint = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { onRoute: (r) => routes.push(r) });
  const clients: Client[] = [];
  for (const wire of WIRES) clients.push(await clientOn(endpoint, principal, wire));
  return { routes, clients: clients as [Client, Client] };
}

type Envelope = { ok: boolean; data?: Record<string, unknown>; error?: { code: string; hint?: string } };
const shapeOf = (r: unknown) => {
  const { content, structuredContent, isError } = r as Record<string, unknown>;
  return { content, structuredContent: structuredContent as Envelope, isError };
};

it('lists the same tools on both wires for every filter, and a withheld area leaves both lists', async () => {
  const d = await s.seed();
  const principals: Principal[] = [
    await callerPrincipal(s, d.tokens.all),
    await callerPrincipal(s, d.tokens.default),
    await callerPrincipal(s, d.tokens.workspace),
    await callerPrincipal(s, d.tokens.other),
    unbound,
  ];
  const names = (l: { tools: Array<{ name: string }> }) => l.tools.map((t) => t.name);
  const seen: string[][] = [];
  for (const p of principals) {
    const { routes, clients } = await bothWires(p);
    routes.length = 0;
    const [legacy, modern] = await Promise.all(clients.map((c) => c.listTools()));
    expect(legacy!.tools).toEqual(modern!.tools);
    expect(routes).toEqual(['direct-list']);
    seen.push(names(legacy!));
  }
  // The filters differ (so the comparison covered more than one list), and the unbound client sees
  // what its token's scopes could reach.
  expect(new Set(seen.map((n) => n.join())).size).toBeGreaterThan(1);
  expect(seen[0]).toContain('update_section_text');
  expect(seen[4]).toContain('get_page');
  await s.sg.deps.services.db
    .update(companies)
    .set({ withheldAreas: ['content'] })
    .where(eq(companies.id, d.companyId));
  const { clients } = await bothWires(await callerPrincipal(s, d.tokens.all));
  const after = await Promise.all(clients.map((c) => c.listTools()));
  expect(after[0]!.tools).toEqual(after[1]!.tools);
  expect(names(after[0]!)).not.toContain('update_section_text');
});

it('answers calls alike on both wires: reads, refusals, invalid input, the steps only a person takes', async () => {
  const d = s.demo;
  const def = await callerPrincipal(s, d.tokens.default);
  const other = await callerPrincipal(s, d.tokens.other);
  const cases: Array<[Principal, string, Record<string, unknown>, string | null]> = [
    [def, 'get_page', { pageId: d.pages.about }, null],
    [def, 'list_pages', {}, null],
    [def, 'get_site_overview', {}, null],
    [def, 'get_page', { pageId: '00000000-0000-4000-8000-000000000000' }, 'not_found'],
    [other, 'get_page', { pageId: d.pages.about }, 'not_found'],
    [def, 'get_page', { pageId: 42 }, 'invalid_input'],
    [def, 'get_page', { pageId: d.pages.about, surprise: true }, 'invalid_input'],
    [
      other,
      'update_section_text',
      { pageId: d.pages.home, sectionId: d.sections.hero, text: { heading: 'x' } },
      'not_found',
    ],
    [def, 'confirm_pending_action', { planId: '00000000-0000-4000-8000-000000000000' }, 'not_found'],
    [unbound, 'get_page', { pageId: d.pages.about }, 'not_connected'],
  ];
  for (const [p, name, args, code] of cases) {
    const { routes, clients } = await bothWires(p);
    routes.length = 0;
    const [legacy, modern] = await Promise.all(
      clients.map(async (c) => shapeOf(await c.callTool({ name, arguments: args }))),
    );
    expect(legacy).toEqual(modern);
    expect(legacy!.structuredContent.error?.code ?? null, `${name} ${JSON.stringify(args)}`).toBe(code);
    expect(routes).toEqual(['direct-call']);
  }
});

it('refuses an unknown tool as a protocol error on both wires, and records each attempt', async () => {
  const d = await s.seed();
  const { routes, clients } = await bothWires(await callerPrincipal(s, d.tokens.default));
  routes.length = 0;
  for (const c of clients) {
    await expect(c.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  }
  expect(routes).toEqual(['direct-call']);
  // A denied attempt's line is written after the answer, in the recorder's next batch.
  await s.sg.deps.activity.flush();
  const lines = await s.sg.deps.services.db
    .select({ outcome: activity.outcome })
    .from(activity)
    .where(and(eq(activity.connectionId, d.connections.default), eq(activity.tool, 'unknown_tool')));
  expect(lines.map((l) => l.outcome)).toEqual(['denied', 'denied']);
});

it('makes a write the same way on both wires: the change, its Activity line and the answer', async () => {
  const d = await s.seed();
  const { clients } = await bothWires(await callerPrincipal(s, d.tokens.default));
  const answers: Envelope[] = [];
  for (const [i, c] of clients.entries()) {
    const heading = `Written on ${WIRES[i]}`;
    const r = await c.callTool({
      name: 'update_section_text',
      arguments: { pageId: d.pages.home, sectionId: d.sections.hero, text: { heading } },
    });
    answers.push(shapeOf(r).structuredContent);
    const page = await s.call(d.tokens.default, 'get_page', { pageId: d.pages.home });
    expect(JSON.stringify(page)).toContain(heading);
  }
  expect(answers.map((a) => a.ok)).toEqual([true, true]);
  expect(Object.keys(answers[0]!.data ?? {}).sort()).toEqual(Object.keys(answers[1]!.data ?? {}).sort());
  // Each wire's write recorded its Activity line in the write's transaction: two lines, both allowed.
  const lines = await s.sg.deps.services.db
    .select({ outcome: activity.outcome })
    .from(activity)
    .where(and(eq(activity.companyId, d.companyId), eq(activity.tool, 'update_section_text')));
  expect(lines.map((l) => l.outcome)).toEqual(['allowed', 'allowed']);
});
