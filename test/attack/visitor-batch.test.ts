// Attack suite, round 4: a JSON-RPC batch against a published site's endpoint for visitors' assistants.
// One request may carry up to 100 calls; the sender's allowance (VISITOR_MCP_READS_PER_MINUTE, 60 by
// default) once counted requests, so three batches had 300 get_business calls answered and moved the
// owner's "assistant calls" figure by 300. Now every call of a batch is taken from the allowance: the
// calls past it answer the limit's own error, the others succeed, the next request is refused whole
// (429), and the owner's figure moves by exactly the calls that were let through. On the service's host
// and on a verified custom domain alike; another address keeps its own allowance.
import http from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domains } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

const ALLOWANCE = 60; // the default VISITOR_MCP_READS_PER_MINUTE
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

type Reply = { id: number; result?: { isError?: boolean }; error?: { code: number; message: string } };
type Answer = { status: number; retryAfter?: string; body: unknown };

/** One POST from a loopback `address` with an explicit Host header (the custom domain's, or ours). */
function post(address: string, host: string, path: string, body: unknown): Promise<Answer> {
  const u = new URL(s.url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        localAddress: address,
        path,
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'user-agent': 'BatchAssistant/1.0',
          'content-length': Buffer.byteLength(text),
        },
      },
      (res) => {
        let out = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          out += c;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            retryAfter: res.headers['retry-after'] as string | undefined,
            body: out ? JSON.parse(out) : null,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const batch = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    jsonrpc: '2.0',
    id: from + i,
    method: 'tools/call',
    params: { name: 'get_business', arguments: {} },
  }));

async function assistantCalls(d: Demo): Promise<number> {
  const r = await s.call(d.tokens.all, 'get_analytics_summary', { websiteId: d.websites.main, days: 1 });
  expect(r.ok, JSON.stringify(r.error)).toBe(true);
  return r.data!.assistantCalls as number;
}

/** Three batches of 100 from one address: what was answered, what was refused, and how. */
async function threeBatches(address: string, host: string, path: string) {
  let answered = 0;
  let limited = 0;
  const statuses: number[] = [];
  for (let round = 0; round < 3; round++) {
    const r = await post(address, host, path, batch(100, round * 100));
    statuses.push(r.status);
    if (r.status === 429) {
      expect(r.retryAfter).toMatch(/^\d+$/);
      continue;
    }
    expect(r.status).toBe(200);
    const replies = r.body as Reply[];
    expect(replies).toHaveLength(100);
    for (const reply of replies) {
      if (reply.result && !reply.result.isError) answered += 1;
      else {
        // The limit's own error: the edge's words, with the wait.
        expect(reply.error?.code).toBe(-32000);
        expect(reply.error?.message).toMatch(/^Too many requests; retry in \d+ s\.$/);
        limited += 1;
      }
    }
  }
  return { answered, limited, statuses };
}

async function customDomainOf(d: Demo): Promise<string> {
  const [dom] = await s.sg.deps.services.db
    .select({ hostname: domains.hostname })
    .from(domains)
    .where(and(eq(domains.websiteId, d.websites.main), eq(domains.status, 'verified')));
  return dom!.hostname;
}

describe('a JSON-RPC batch against the visitor allowance', () => {
  it('at /sites/<id>/_api/mcp: 300 calls in three requests answer the allowance, no more; analytics counts what was answered', async () => {
    const d = await s.seed();
    const host = new URL(s.url).host;
    const path = `/sites/${d.websites.main}/_api/mcp`;
    const before = await assistantCalls(d);
    const r = await threeBatches('127.0.82.1', host, path);
    expect(r.answered).toBe(ALLOWANCE);
    expect(r.limited).toBe(100 - ALLOWANCE);
    expect(r.statuses).toEqual([200, 429, 429]);
    expect((await assistantCalls(d)) - before).toBe(ALLOWANCE);
    // Another address has its own allowance.
    const other = await post('127.0.82.2', host, path, batch(5));
    expect(other.status).toBe(200);
    expect((other.body as Reply[]).every((x) => x.result && !x.result.isError)).toBe(true);
    expect((await assistantCalls(d)) - before).toBe(ALLOWANCE + 5);
  });

  it('on the verified custom domain at /_api/mcp: the same allowance, call by call', async () => {
    const d = await s.seed();
    const host = `${await customDomainOf(d)}:${new URL(s.url).port}`;
    const before = await assistantCalls(d);
    const r = await threeBatches('127.0.82.3', host, '/_api/mcp');
    expect(r.answered).toBe(ALLOWANCE);
    expect(r.statuses).toEqual([200, 429, 429]);
    expect((await assistantCalls(d)) - before).toBe(ALLOWANCE);
  });

  it('single requests still count one each: the allowance-th is answered, the next is 429', async () => {
    const d = await s.seed();
    const host = new URL(s.url).host;
    const path = `/sites/${d.websites.main}/_api/mcp`;
    const statuses: number[] = [];
    for (let i = 0; i < ALLOWANCE + 1; i++)
      statuses.push((await post('127.0.82.4', host, path, batch(1)[0])).status);
    expect(statuses.slice(0, ALLOWANCE).every((x) => x === 200)).toBe(true);
    expect(statuses[ALLOWANCE]).toBe(429);
  });
});
