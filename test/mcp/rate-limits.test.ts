// Rate limits (R-LIM-1): the 121st call in a minute is refused for a connection, naming the limit
// and the wait; the workspace limit spans connections. No sleeping: the window is one minute and
// the calls take well under it.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activity } from '../../src/db/schema.js';
import { type TestServer, postMcp, startTestServer } from '../helpers/server.js';

let s: TestServer;
let small: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
  small = await startTestServer({ seed: false, env: { RATE_LIMIT_PER_WORKSPACE: '5' } });
});
afterAll(async () => {
  await s?.close();
  await small?.close();
});

it('refuses the 121st call of a connection within a minute', async () => {
  const d = await s.seed();
  const results = [];
  for (let i = 0; i < 120; i += 1) results.push(await s.call(d.tokens.default, 'list_sites'));
  expect(results.every((r) => r.ok)).toBe(true);
  const over = await s.call(d.tokens.default, 'list_sites');
  expect(over.error?.code).toBe('rate_limited');
  expect(over.error?.message).toMatch(/120 calls per minute for this connection\. Retry in \d+ s/);
  // Another connection of the same workspace still has its own allowance.
  expect((await s.call(d.tokens.all, 'list_sites')).ok).toBe(true);
  await s.sg.deps.activity.flush();
  const denied = await s.sg.deps.services.db.select().from(activity).where(eq(activity.code, 'rate_limited'));
  expect(denied.some((r) => r.connectionId === d.connections.default)).toBe(true);
});

it('refusals past the limit are counted on one Activity line per connection and minute, not one row each', async () => {
  const d = await s.seed();
  for (let i = 0; i < 120; i += 1) await s.call(d.tokens.default, 'list_sites');
  // 100 calls in one JSON-RPC batch, then 50 single calls: all refused.
  const batch = Array.from({ length: 100 }, (_, i) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'tools/call',
    params: { name: 'list_sites', arguments: {} },
  }));
  await postMcp(s.mcpUrl, d.tokens.default, batch);
  for (let i = 0; i < 50; i += 1)
    expect((await s.call(d.tokens.default, 'list_sites')).error?.code).toBe('rate_limited');
  await s.sg.deps.activity.flush();
  const rows = await s.sg.deps.services.db
    .select()
    .from(activity)
    .where(and(eq(activity.connectionId, d.connections.default), eq(activity.code, 'rate_limited')));
  expect(rows).toHaveLength(1);
  // The line says how many were refused (the batch may be refused as a whole by the HTTP layer).
  const counted = Number(/^(\d+) calls refused/.exec(rows[0]!.summary)?.[1]);
  expect(counted).toBeGreaterThanOrEqual(50);
  expect(counted).toBeLessThanOrEqual(150);
  // The 120 allowed reads are still there, one line each.
  const allowed = await s.sg.deps.services.db
    .select()
    .from(activity)
    .where(and(eq(activity.connectionId, d.connections.default), eq(activity.outcome, 'allowed')));
  expect(allowed).toHaveLength(120);
});

it('the workspace limit spans every connection of the workspace', async () => {
  const d = await small.seed();
  const tokens = [d.tokens.default, d.tokens.all, d.tokens.workspace];
  const outcomes: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    const r = await small.call(tokens[i % 3]!, 'list_sites');
    outcomes.push(r.ok ? 'ok' : r.error!.code);
  }
  expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'rate_limited']);
  const other = await small.call(d.tokens.other, 'list_sites');
  expect(other.ok).toBe(true);
});
