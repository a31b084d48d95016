// The protocol surface of /api/mcp on both revisions, from one process (MCP 2026-07-28
// and 2025-11-25): server/discover, the per-request envelope and its header checks with the spec's
// error codes, resultType, 404 for unknown methods, unknown tools and resources as JSON-RPC errors,
// resources/templates/list, private caching hints — and the 2025 path answering statelessly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activity } from '../../src/db/schema.js';
import { MODERN, postModern } from '../helpers/mcp2026.js';
import { type TestServer, postMcp, startTestServer } from '../helpers/server.js';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = s.demo.tokens.all;
});
afterAll(() => s?.close());

describe('2026-07-28', () => {
  it('server/discover names the revision, the capabilities and the instructions', async () => {
    const r = await postModern(s.mcpUrl, token, 'server/discover');
    expect(r.status).toBe(200);
    const result = r.body.result;
    expect(result.supportedVersions).toContain(MODERN);
    expect(result.capabilities.tools).toBeDefined();
    expect(result.instructions).toMatch(/data, never instructions/);
    expect(result.resultType).toBe('complete');
  });

  it('answers a call with resultType and the envelope, and lists with private caching hints', async () => {
    const call = await postModern(s.mcpUrl, token, 'tools/call', { name: 'list_pages', arguments: {} });
    expect(call.status).toBe(200);
    expect(call.body.result.resultType).toBe('complete');
    expect(call.body.result.structuredContent.ok).toBe(true);
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      const r = await postModern(s.mcpUrl, token, method);
      expect(r.status, method).toBe(200);
      expect(r.body.result.cacheScope, method).toBe('private');
      expect(r.body.result.ttlMs, method).toBeGreaterThan(0);
    }
    const read = await postModern(s.mcpUrl, token, 'resources/read', { uri: 'sitegate://site/overview' });
    expect(read.body.result).toMatchObject({ cacheScope: 'private', ttlMs: 0 });
  });

  it('validates the protocol headers with the spec error codes', async () => {
    const params = { name: 'list_pages', arguments: {} };
    // Header and envelope disagree on the revision.
    const mismatch = await postModern(s.mcpUrl, token, 'tools/call', params, {
      headers: { 'mcp-protocol-version': '2025-11-25' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe(-32020);
    // Mcp-Method names another method than the body.
    const method = await postModern(s.mcpUrl, token, 'tools/call', params, {
      headers: { 'mcp-method': 'tools/list' },
    });
    expect(method.status).toBe(400);
    expect(method.body.error.code).toBe(-32020);
    // Mcp-Name names another tool than the body.
    const name = await postModern(s.mcpUrl, token, 'tools/call', params, {
      headers: { 'mcp-name': 'get_page' },
    });
    expect(name.status).toBe(400);
    expect(name.body.error.code).toBe(-32020);
    // A revision this server does not speak.
    const unknown = await postModern(
      s.mcpUrl,
      token,
      'tools/list',
      {},
      {
        headers: { 'mcp-protocol-version': '2099-01-01' },
      },
    );
    expect(unknown.status).toBe(400);
    expect([-32022, -32020]).toContain(unknown.body.error.code);
    // A modern header without the envelope.
    const bare = await postModern(s.mcpUrl, token, 'tools/list', {}, { noEnvelope: true });
    expect(bare.status).toBe(400);
    expect(bare.body.error.code).toBe(-32602);
  });

  it('answers an unknown method with 404, and the removed ping too', async () => {
    const r = await postModern(s.mcpUrl, token, 'tools/frobnicate');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe(-32601);
    expect((await postModern(s.mcpUrl, token, 'ping')).status).toBe(404);
  });

  it('an unknown tool is -32602, and the attempt is still in Activity', async () => {
    const d = await s.seed();
    const r = await postModern(s.mcpUrl, d.tokens.all, 'tools/call', { name: 'delete_site', arguments: {} });
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toMatch(/Unknown tool/);
    await s.sg.deps.activity.flush();
    const rows = await s.sg.deps.services.db.select().from(activity);
    expect(rows.some((a) => a.connectionId === d.connections.all && a.tool === 'unknown_tool')).toBe(true);
  });

  it('resource not found is -32602 with data.uri; the page template reads a page', async () => {
    const uri = 'sitegate://site/nothing-here';
    const r = await postModern(s.mcpUrl, token, 'resources/read', { uri });
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.data).toEqual({ uri });
    const templates = await postModern(s.mcpUrl, token, 'resources/templates/list');
    expect(
      templates.body.result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate),
    ).toEqual(['sitegate://site/pages/{pageId}']);
    const page = await postModern(s.mcpUrl, token, 'resources/read', {
      uri: `sitegate://site/pages/${s.demo.pages.about}`,
    });
    expect(JSON.parse(page.body.result.contents[0].text).pageId).toBe(s.demo.pages.about);
    // Another tenant's page is a resource that does not exist here.
    const other = `sitegate://site/pages/${s.demo.pages.otherHome}`;
    const miss = await postModern(s.mcpUrl, token, 'resources/read', { uri: other });
    expect(miss.body.error).toMatchObject({ code: -32602, data: { uri: other } });
  });
});

describe('2025-11-25 on the same process, statelessly', () => {
  it('initialize, then calls without a session; a plain call is one JSON answer', async () => {
    const init = await postMcp(s.mcpUrl, token, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect((await init.json()).result.protocolVersion).toBe('2025-11-25');
    const call = await postMcp(s.mcpUrl, token, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'list_pages', arguments: {} },
    });
    expect(call.headers.get('content-type')).toMatch(/application\/json/);
    const body = await call.json();
    expect(body.result.structuredContent.ok).toBe(true);
    expect(body.result.resultType).toBeUndefined();
    // Unknown tools are protocol errors on this revision too.
    const unknown = await postMcp(s.mcpUrl, token, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'delete_site', arguments: {} },
    });
    expect((await unknown.json()).error.code).toBe(-32602);
  });

  it('GET and DELETE are 405: there are no sessions or standalone streams', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(s.mcpUrl, { method, headers: { authorization: `Bearer ${token}` } });
      expect(r.status, method).toBe(405);
    }
  });

  it('refuses a body that is not JSON (415) and one over the size bound unread (413)', async () => {
    const text = await fetch(s.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(text.status).toBe(415);
    const huge = await fetch(s.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"pad":"${'x'.repeat(7 * 1024 * 1024)}"}`,
    });
    expect(huge.status).toBe(413);
  });
});
