// MCP Apps on the protocol (R-APP-1, R-APP-2), against a real server with the official SDK v2 client on
// both protocol revisions. The contract: a client without the extension sees exactly the listing its
// tools' contract snapshots hold and answers without a view; an app-capable client sees the same plus
// `_meta.ui` on the app tools (checked with ext-apps' own schemas) and the view beside the answer. How
// each revision's client is recognised; the app documents (static, small, strict policy, no personal
// data); no visitor text in any view; a refused call draws nothing. Rendering: test/web/mcp-apps.browser.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpUiResourceMetaSchema, McpUiToolMetaSchema } from '@modelcontextprotocol/ext-apps/app-bridge';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activity, leads } from '../../src/db/schema.js';
import { APPS, TOOL_APPS, VIEW_META_KEY } from '../../src/mcp/apps/catalogue.js';
import { declaresApps } from '../../src/mcp/apps/extension.js';
import { createMcpEndpoint } from '../../src/mcp/endpoint.js';
import { type Principal, authInfoFor } from '../../src/mcp/principal.js';
import { mcpApps } from '../../src/web/apps/index.js';
import { APPS_CAPABILITIES, WIRES, type Wire, appsClient, viewOf } from '../helpers/apps.js';
import { ENDPOINT_KEY } from '../helpers/endpoint.js';
import { MODERN, postModern } from '../helpers/mcp2026.js';
import { type TestServer, postMcp, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close().catch(() => {}))));
const client = async (wire: Wire, apps: boolean, token = s.demo.tokens.all) => {
  const c = await appsClient(s.mcpUrl, token, wire, apps);
  clients.push(c);
  return c;
};

/** A tool as its contract snapshot holds it: what every client saw before the apps. */
function snapshotListing(name: string) {
  const file = path.resolve(`test/__snapshots__/tools/${name}.json`);
  const { title, description, inputSchema, annotations } = JSON.parse(readFileSync(file, 'utf8'));
  return { name, title, description, inputSchema, annotations };
}

/** An answer with its view taken out of `_meta` (and `_meta` left out once empty). */
function withoutView(r: Record<string, unknown>) {
  const { [VIEW_META_KEY]: _view, ...meta } = (r._meta ?? {}) as Record<string, unknown>;
  const { _meta: _m, ...rest } = r;
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}

describe.each(WIRES)('on the %s wire', (wire) => {
  it('the server declares the extension in its own capabilities', async () => {
    const c = await client(wire, true);
    expect(c.getServerCapabilities()?.extensions).toEqual(APPS_CAPABILITIES.extensions);
  });

  it('a client without the extension lists exactly its tools’ contract snapshots, no `_meta`', async () => {
    const { tools } = await (await client(wire, false)).listTools();
    expect(tools.length).toBe(s.sg.deps.registry.all().length);
    for (const t of tools) expect(t).toEqual(snapshotListing(t.name));
  });

  it('an app-capable client sees the same tools, the app tools naming their app, within 40 KiB', async () => {
    const plain = (await (await client(wire, false)).listTools()).tools;
    const { tools } = await (await client(wire, true)).listTools();
    expect(tools.map((t) => t.name)).toEqual(plain.map((t) => t.name));
    const withApps = tools.filter((t) => t._meta);
    expect(withApps.map((t) => t.name).sort()).toEqual(Object.keys(TOOL_APPS).sort());
    for (const [i, t] of tools.entries()) {
      const { _meta, ...entry } = t;
      expect(entry).toEqual(plain[i]);
      if (!_meta) continue;
      expect(Object.keys(_meta)).toEqual(['ui']);
      expect(McpUiToolMetaSchema.parse(_meta.ui)).toEqual({ resourceUri: APPS[TOOL_APPS[t.name]!.app].uri });
    }
    expect(Buffer.byteLength(JSON.stringify({ tools }), 'utf8')).toBeLessThanOrEqual(40 * 1024);
  });

  it('an app tool answers the same to both clients; only the app-capable one gets the view', async () => {
    const [plain, apps] = [await client(wire, false), await client(wire, true)];
    const calls: Array<[string, Record<string, unknown>, string | null]> = [
      ['get_page', { pageId: s.demo.pages.about }, 'html'],
      ['list_draft_changes', {}, 'html'],
      ['get_site_overview', {}, 'pages'],
      // A replayed key answers the first result again, so both clients get the same plan.
      ['prepare_publish', { idempotencyKey: `apps-${wire}-publish` }, 'html'],
      // A tool without an app answers both alike.
      ['prepare_unpublish', { idempotencyKey: `apps-${wire}-unpublish` }, null],
    ];
    for (const [name, args, viewKey] of calls) {
      const a = (await plain.callTool({ name, arguments: args })) as Record<string, unknown>;
      const b = (await apps.callTool({ name, arguments: args })) as Record<string, unknown>;
      expect(a.isError, name).toBeFalsy();
      expect(viewOf(a), name).toBeUndefined();
      expect(withoutView(b), name).toEqual(a);
      if (viewKey) expect(viewOf(b), name).toHaveProperty(viewKey);
      else expect(viewOf(b), name).toBeUndefined();
    }
  });

  it('a refused call gets no view, and Activity holds its refusal alone', async () => {
    const apps = await client(wire, true);
    await s.sg.deps.activity.flush();
    const before = await activityOf(s.demo.connections.all);
    const r = await apps.callTool({ name: 'get_page', arguments: { pageId: s.demo.pages.otherHome } });
    expect((r.structuredContent as { error: { code: string } }).error.code).toBe('not_found');
    expect(viewOf(r as Record<string, unknown>)).toBeUndefined();
    await s.sg.deps.activity.flush();
    const added = (await activityOf(s.demo.connections.all)).slice(before.length);
    expect(added).toEqual([{ tool: 'get_page', outcome: 'denied' }]);
  });

  it('a successful app call writes the tool’s Activity line and the view’s', async () => {
    const apps = await client(wire, true);
    await s.sg.deps.activity.flush();
    const before = await activityOf(s.demo.connections.all);
    await apps.callTool({ name: 'get_page', arguments: { pageId: s.demo.pages.contact } });
    await s.sg.deps.activity.flush();
    const added = (await activityOf(s.demo.connections.all)).slice(before.length);
    expect(added).toEqual([
      { tool: 'get_page', outcome: 'allowed' },
      { tool: 'page_view', outcome: 'allowed' },
    ]);
  });
});

async function activityOf(connectionId: string) {
  return s.sg.deps.services.db
    .select({ tool: activity.tool, outcome: activity.outcome })
    .from(activity)
    .where(eq(activity.connectionId, connectionId))
    .orderBy(activity.id);
}

describe('recognising an app-capable client', () => {
  const initialize = (capabilities: unknown) =>
    postMcp(s.mcpUrl, s.demo.tokens.all, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } },
    });
  /** A 2025-wire request after initialize, with `headers` added. */
  const post2025 = (body: unknown, headers: Record<string, string>) =>
    fetch(s.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${s.demo.tokens.all}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const listWith = async (headers: Record<string, string>) => {
    const res = await post2025({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers);
    const tools = (await res.json()).result.tools as Array<{ name: string; _meta?: unknown }>;
    return tools.filter((t) => t._meta).map((t) => t.name);
  };

  it('2025: an initialize that declares the extension is answered with a session id that says so', async () => {
    const declared = await initialize(APPS_CAPABILITIES);
    expect(declared.status).toBe(200);
    const session = declared.headers.get('mcp-session-id');
    expect(session).toMatch(/^sitegate-apps\./);
    expect((await listWith({ 'mcp-session-id': session! })).sort()).toEqual(Object.keys(TOOL_APPS).sort());
    // Undeclared, or declared wrongly: no session id, as before the apps.
    for (const caps of [
      {},
      { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: RESOURCE_MIME_TYPE } } },
    ]) {
      const res = await initialize(caps);
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeNull();
    }
    // Any other session id is no declaration.
    expect(await listWith({ 'mcp-session-id': 'sitegate-apps.not-a-uuid' })).toEqual([]);
    expect(await listWith({})).toEqual([]);
  });

  it('2025: a call the SDK serves itself (it asks for progress) is recognised by the same session id', async () => {
    const session = (await initialize(APPS_CAPABILITIES)).headers.get('mcp-session-id')!;
    const call = (headers: Record<string, string>) =>
      post2025(
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'list_draft_changes', arguments: {}, _meta: { progressToken: 'p1' } },
        },
        headers,
      ).then(async (res) => {
        expect(res.headers.get('content-type')).toContain('text/event-stream');
        const data = (await res.text()).split('\n').filter((l) => l.startsWith('data:'));
        return JSON.parse(data.at(-1)!.slice(5)).result as Record<string, unknown>;
      });
    const withApps = await call({ 'mcp-session-id': session });
    const without = await call({});
    expect(viewOf(withApps)).toHaveProperty('html');
    expect(viewOf(without)).toBeUndefined();
    expect(withoutView(withApps)).toEqual(without);
  });

  it('2026-07-28: each request’s envelope decides, not a session header', async () => {
    const names = (r: { body: { result: { tools: Array<{ name: string; _meta?: unknown }> } } }) =>
      r.body.result.tools.filter((t) => t._meta).map((t) => t.name);
    const declared = await postModern(
      s.mcpUrl,
      s.demo.tokens.all,
      'tools/list',
      {},
      { capabilities: APPS_CAPABILITIES },
    );
    expect(names(declared).sort()).toEqual(Object.keys(TOOL_APPS).sort());
    const session = (await initialize(APPS_CAPABILITIES)).headers.get('mcp-session-id')!;
    const undeclared = await postModern(
      s.mcpUrl,
      s.demo.tokens.all,
      'tools/list',
      {},
      { headers: { 'mcp-session-id': session } },
    );
    expect(undeclared.status).toBe(200);
    expect(names(undeclared)).toEqual([]);
  });

  it('reads the declaration as the extension defines it, and nothing looser', () => {
    expect(declaresApps(APPS_CAPABILITIES)).toBe(true);
    expect(declaresApps({})).toBe(false);
    expect(declaresApps(undefined)).toBe(false);
    // The client's JSON, whatever its shape.
    const ui = (v: unknown) => ({ extensions: { 'io.modelcontextprotocol/ui': v } }) as never;
    expect(declaresApps(ui({}))).toBe(false);
    expect(declaresApps(ui({ mimeTypes: RESOURCE_MIME_TYPE }))).toBe(false);
    expect(declaresApps(ui({ mimeTypes: ['text/html'] }))).toBe(false);
    expect(declaresApps({ extensions: { 'io.example/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } })).toBe(
      false,
    );
  });
});

describe('an OAuth sign-in not bound to a connection yet', () => {
  it('is listed the apps, reads the documents (they are public) and gets no view', async () => {
    const unbound: Principal = {
      kind: 'unbound',
      key: 'oauth:apps',
      clientId: 'c-apps',
      scopes: ['site:read'],
    };
    const endpoint = createMcpEndpoint(s.sg.deps, ENDPOINT_KEY, { apps: mcpApps(s.sg.deps) });
    for (const wire of WIRES) {
      const c = new Client(
        { name: 'apps-unbound', version: '1' },
        {
          capabilities: APPS_CAPABILITIES,
          versionNegotiation: { mode: wire === MODERN ? { pin: MODERN } : 'legacy' },
        },
      );
      await c.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/api/mcp'), {
          fetch: (url, init) => endpoint.fetch(new Request(url, init), { authInfo: authInfoFor(unbound) }),
        }),
      );
      const { tools } = await c.listTools();
      expect(tools.find((t) => t.name === 'get_page')?._meta).toEqual({ ui: { resourceUri: APPS.page.uri } });
      const [doc] = (await c.readResource({ uri: APPS.page.uri })).contents;
      expect(doc?.mimeType).toBe(RESOURCE_MIME_TYPE);
      const r = await c.callTool({ name: 'get_page', arguments: { pageId: s.demo.pages.home } });
      expect(r.isError).toBe(true);
      expect(viewOf(r as Record<string, unknown>)).toBeUndefined();
      // Its other resources stay closed until the owner binds it.
      await expect(c.readResource({ uri: 'sitegate://site/overview' })).rejects.toThrow();
      await c.close();
    }
  });
});

describe('the app documents', () => {
  it('are static, small, declare a policy of this service alone, and hold no personal data', async () => {
    const c = await client(MODERN, true);
    // A second server, at another address (same database): the same bytes, its own origin in the policy.
    const other = await startTestServer({ seed: false });
    const o = await appsClient(other.mcpUrl, s.demo.tokens.all, MODERN, true);
    try {
      const secrets = [
        ...Object.values(s.demo.tokens),
        ...Object.values(s.demo.users).map((u) => u.email),
        ...Object.values(s.demo.websites),
        'Harbor Bakery',
        s.url,
      ];
      type Content = { mimeType: string; text: string; _meta: { ui: unknown } };
      for (const app of Object.values(APPS)) {
        const [content] = (await c.readResource({ uri: app.uri })).contents as unknown as Content[];
        expect(content!.mimeType).toBe(RESOURCE_MIME_TYPE);
        expect(McpUiResourceMetaSchema.parse(content!._meta.ui)).toEqual({
          csp: { resourceDomains: [s.url] },
          prefersBorder: true,
        });
        const html = content!.text;
        expect(html.startsWith('<!doctype html>')).toBe(true);
        expect(Buffer.byteLength(html)).toBeLessThan(60 * 1024);
        for (const secret of secrets) expect(html).not.toContain(secret);
        const [there] = (await o.readResource({ uri: app.uri })).contents as unknown as Content[];
        expect(there!.text).toBe(html);
        expect(there!._meta.ui).toEqual({ csp: { resourceDomains: [other.url] }, prefersBorder: true });
      }
    } finally {
      await o.close();
      await other.close();
    }
  });

  it('are not listed as resources, and a ui:// address that names none is not found', async () => {
    const c = await client(MODERN, true);
    const { resources } = await c.listResources();
    expect(resources.some((r) => r.uri.startsWith('ui://'))).toBe(false);
    await expect(c.readResource({ uri: 'ui://sitegate/nothing' })).rejects.toThrow(/not found/i);
  });
});

describe('what the views draw', () => {
  it('the page view is the owner’s draft preview, escaped the same, marks and image addresses aside', async () => {
    const d = await s.seed();
    // What validation lets through but only escaping makes safe (tags themselves are refused on input).
    const hostile = 'Rolls & "buns" for 2 < 3 > 1';
    const edit = await s.call(d.tokens.all, 'update_section_text', {
      pageId: d.pages.about,
      sectionId: (await s.call(d.tokens.all, 'get_page', { pageId: d.pages.about })).data!.sections[0]
        .sectionId,
      text: { heading: hostile },
    });
    expect(edit.ok).toBe(true);
    const c = await client(MODERN, true, d.tokens.all);
    const view = viewOf(
      (await c.callTool({ name: 'get_page', arguments: { pageId: d.pages.about } })) as never,
    )!;
    expect(view.status).toBe('changed');
    expect(view.marked).toHaveLength(1);
    expect(view.html).toContain('Rolls &amp; &quot;buns&quot; for 2 &lt; 3 &gt; 1');
    expect(view.html).not.toContain('<script');
    const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
    const preview = await web.get(`/editor/${d.websites.main}/about`);
    expect(preview.status).toBe(200);
    const unmarked = (view.html as string).replace(/<style>[^<]*Changed[^<]*<\/style><\/head>/, '</head>');
    expect(unmarked.replaceAll(`${s.url}/assets/`, '/assets/')).toBe(preview.body);
  });

  it('never carry visitor text: no lead’s name, address or message in any view', async () => {
    const c = await client(MODERN, true);
    const rows = await s.sg.deps.services.db
      .select({ name: leads.name, email: leads.email, message: leads.message })
      .from(leads)
      .where(eq(leads.websiteId, s.demo.websites.main));
    expect(rows.length).toBeGreaterThan(0);
    const views: string[] = [];
    for (const [name, args] of [
      ['get_page', { pageId: s.demo.pages.home }],
      ['get_page', { pageId: s.demo.pages.contact }],
      ['list_draft_changes', {}],
      ['get_site_overview', {}],
      ['prepare_publish', {}],
    ] as const) {
      const view = viewOf((await c.callTool({ name, arguments: args })) as never);
      expect(view, name).toBeDefined();
      views.push(JSON.stringify(view));
    }
    for (const row of rows) {
      for (const text of [row.name, row.email, row.message].filter(Boolean) as string[]) {
        for (const v of views) expect(v).not.toContain(text);
      }
    }
  });
});
