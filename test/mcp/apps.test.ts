import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { WIRES, appsClient, viewOf } from '../helpers/apps.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

it.each(WIRES)('smoke %s', async (wire) => {
  const c = await appsClient(s.mcpUrl, s.demo.tokens.all, wire, true);
  const { tools } = await c.listTools();
  console.log(tools.filter((t) => t._meta).map((t) => [t.name, t._meta]));
  const r = await c.readResource({ uri: 'ui://sitegate/page' });
  console.log(r.contents[0]!.mimeType, (r.contents[0] as any).text.length, r.contents[0]!._meta);
  const p = await c.callTool({ name: 'get_page', arguments: { pageId: s.demo.pages.home } });
  console.log(Object.keys(p), viewOf(p as any) && Object.keys(viewOf(p as any)!));
  const plain = await appsClient(s.mcpUrl, s.demo.tokens.all, wire, false);
  const q = await plain.callTool({ name: 'get_page', arguments: { pageId: s.demo.pages.home } });
  console.log(Object.keys(q));
  await c.close();
  await plain.close();
});
