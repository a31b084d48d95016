// The draft-changes resource and the prompts over MCP (real HTTP server, SDK client). Each content tool's
// own tests are in test/tools/<tool>.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
let d: Demo;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
  d = await s.seed();
});
afterAll(() => s?.close());

describe('draft-changes resource and prompts', () => {
  it('reads the draft-changes resource', async () => {
    const c = await s.client(d.tokens.default);
    const r = await c.readResource({ uri: 'sitegate://site/draft-changes' });
    const data = JSON.parse((r.contents[0] as { text: string }).text);
    expect(data.published).toBe(true);
    expect(data.changes.length).toBeGreaterThan(0);
    expect(data.summary).toContain('prepare_publish');
  });

  it('lists the three prompts and renders each with its arguments, naming real tools', async () => {
    const c = await s.client(d.tokens.default);
    const { prompts } = await c.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      'prep_for_launch',
      'seasonal_update',
      'write_news_post',
    ]);
    const tools = (await c.listTools()).tools.map((t) => t.name);
    const args: Record<string, Record<string, string>> = {
      write_news_post: { topic: 'our new rye loaf', details: 'available from 1 March' },
      prep_for_launch: { launchDate: '1 April' },
      seasonal_update: { season: 'Christmas', offer: '10% off stollen' },
    };
    for (const p of prompts) {
      const r = await c.getPrompt({ name: p.name, arguments: args[p.name] });
      const text = (r.messages[0]!.content as { text: string }).text;
      for (const v of Object.values(args[p.name]!)) expect(text).toContain(v);
      expect(text).toContain('list_draft_changes');
      expect(text).toContain('prepare_publish');
      expect(text).toMatch(/owner/);
      expect(text).toContain('approve');
      for (const named of text.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []) {
        if (['prepare_publish', 'confirm_pending_action'].includes(named)) continue; // the publish issue
        expect(tools).toContain(named);
      }
    }
  });
});
