// Attack suite, the HTTP edge of /api/mcp: malformed JSON-RPC, odd shapes and prototype-pollution keys
// are answered as protocol errors or `invalid_input` refusals — never a 500, never a write — and a body
// that stalls half-way does not hold up anyone else.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { footprint } from '../portable/helpers.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const post = (token: string, body: string, headers: Record<string, string> = {}) =>
  fetch(s.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });

const call = (name: unknown, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } });

describe('malformed JSON-RPC at the edge', () => {
  it('is a protocol error or a refusal, never a server error, and writes nothing', async () => {
    const d = await s.seed();
    const before = await footprint(s, d.companyId);
    const bodies = [
      '',
      '{',
      'null',
      '42',
      '"text"',
      '[]',
      '[1,2,3]',
      '{}',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":42}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}',
      '{"jsonrpc":"2.0","id":1,"method":"no/such/method"}',
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"${'x'.repeat(10_000)}"}}`,
      call(42, {}),
      call('create_page', null),
      call('create_page', 'title'),
      call('create_page', ['title']),
      call('create_page', { title: { toString: 'x' } }),
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_page","arguments":{"__proto__":{"title":"polluted"}}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_page","arguments":{"title":"x","constructor":{"prototype":{"polluted":true}}}}}',
      '{"__proto__":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}',
      `[${Array.from({ length: 50 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"create_page","arguments":{"title":null}}}`).join(',')}]`,
    ];
    for (const body of bodies) {
      const r = await post(d.tokens.all, body);
      const text = await r.text();
      expect({ body: body.slice(0, 60), status: r.status < 500 }).toEqual({
        body: body.slice(0, 60),
        status: true,
      });
      if (r.status === 200 && text.startsWith('{')) {
        const json = JSON.parse(text) as {
          result?: { structuredContent?: { ok: boolean; error?: { code: string } } };
        };
        const env = json.result?.structuredContent;
        // A call that got as far as a tool must have been refused, not run.
        if (env)
          expect({ body: body.slice(0, 60), ok: env.ok }).toEqual({ body: body.slice(0, 60), ok: false });
      }
    }
    // Nothing was polluted in this process, and nothing was written.
    expect(({} as Record<string, unknown>).title).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await footprint(s, d.companyId)).toEqual(before);
    // The server still answers ordinary calls.
    expect((await s.call(d.tokens.all, 'list_pages', {})).ok).toBe(true);
  });

  it('a body that stalls half-way does not block other requests', async () => {
    const d = await s.seed();
    const u = new URL(s.mcpUrl);
    const stalled = http.request({
      method: 'POST',
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      headers: {
        authorization: `Bearer ${d.tokens.all}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'transfer-encoding': 'chunked',
      },
    });
    stalled.on('error', () => {});
    stalled.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_page","arguments":{"title":"',
    );
    try {
      for (let i = 0; i < 5; i += 1) expect((await s.call(d.tokens.all, 'list_pages', {})).ok).toBe(true);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    } finally {
      stalled.destroy();
    }
  });
});
