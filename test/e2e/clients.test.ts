// A 2026-only client and 2025 clients against the same process, over HTTP (issue "Done means"):
// the SDK v1 client (1.32, 2025-11-25 only), the SDK v2 client in legacy mode, and the SDK v2 client
// pinned to 2026-07-28. Each lists, calls, reads a resource and gets a prompt; the answers agree.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

type Any = {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  readResource(p: { uri: string }): Promise<{ contents: unknown[] }>;
  getPrompt(p: { name: string; arguments: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
};

const auth = () => ({ requestInit: { headers: { Authorization: `Bearer ${s.demo.tokens.all}` } } });

async function v1(): Promise<{ c: Any; version: () => string | undefined }> {
  const c = new ClientV1({ name: 'sdk-v1', version: '1.32.2' });
  const t = new HttpV1(new URL(s.mcpUrl), auth());
  await c.connect(t);
  return { c: c as unknown as Any, version: () => t.protocolVersion };
}

async function v2(mode: 'legacy' | { pin: string }): Promise<{ c: Any; version: () => string | undefined }> {
  const c = new ClientV2({ name: 'sdk-v2', version: '2.4.0' }, { versionNegotiation: { mode } });
  const t = new HttpV2(new URL(s.mcpUrl), auth());
  await c.connect(t);
  return { c: c as unknown as Any, version: () => t.protocolVersion };
}

describe('clients of both revisions against one process', () => {
  const cases: Array<[string, () => ReturnType<typeof v1>, string]> = [
    ['SDK v1 1.32', v1, '2025-11-25'],
    ['SDK v2, legacy', () => v2('legacy'), '2025-11-25'],
    ['SDK v2, pinned to 2026-07-28', () => v2({ pin: '2026-07-28' }), '2026-07-28'],
  ];
  const answers: Record<string, unknown> = {};

  it.each(cases)('%s lists, calls, reads and prompts', async (label, connect, revision) => {
    const { c, version } = await connect();
    expect(version()).toBe(revision);
    const tools = (await c.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('get_page');
    const call = (await c.callTool({ name: 'get_page', arguments: { pageId: s.demo.pages.about } })) as {
      structuredContent: { ok: boolean; data: { pageId: string } };
    };
    expect(call.structuredContent.ok).toBe(true);
    const read = await c.readResource({ uri: 'sitegate://site/overview' });
    const prompt = await c.getPrompt({ name: 'write_news_post', arguments: { topic: 'rye' } });
    expect(prompt.messages.length).toBe(1);
    answers[label] = { tools: tools.sort(), page: call.structuredContent.data, read: read.contents };
    await c.close();
  });

  it('every client saw the same tools, page and resource', () => {
    const [first, ...rest] = Object.values(answers);
    expect(rest.length).toBe(2);
    for (const a of rest) expect(a).toEqual(first);
  });
});
