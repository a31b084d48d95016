import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

it('lists pages of the demo site over MCP', async () => {
  const r = await s.call(s.demo.tokens.default, 'list_pages');
  expect(r.ok).toBe(true);
  expect(r.data?.pages.map((p: { slug: string }) => p.slug)).toContain('home');
});
