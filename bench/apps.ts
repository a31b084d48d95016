// Benchmark of the MCP Apps (docs/mcp-apps.md): what an app-capable client's call costs next to the
// same call from a client without the extension, on a 50-page, 500-section site, through the real
// HTTP server with the official SDK v2 client on 2026-07-28 (one call at a time, the two clients
// alternating). The extra work is the view: one more pass through the call path, and for get_page the
// site renderer. Figures are ratios against the plain call measured in the same run.
// Runs on in-memory PGlite, or on PostgreSQL when DATABASE_URL is set.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { pages, sections } from '../src/db/schema.js';
import { APPS_EXTENSION } from '../src/mcp/apps/extension.js';
import { seedDemo } from '../src/demo/seed.js';
import { publishDraft } from '../src/domain/sites/publish.js';
import { newId } from '../src/kernel/ids.js';
import { createSitegate } from '../src/runtime.js';
import { freePort } from '../scripts/free-port.js';

const PAGES = 50;
const PER_PAGE = 10;
const CALLS = 200;

const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil((q / 100) * xs.length) - 1]!;

export async function bench(): Promise<void> {
  const config = loadConfig({
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitegate-bench-')),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_CONNECTION: '1000000',
    RATE_LIMIT_PER_WORKSPACE: '1000000',
  });
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, memory: true });
  const sg = await createSitegate(config, { database, log: pino({ level: 'silent' }) });
  const { url } = await sg.listen();
  const demo = await seedDemo(database.db, { tag: `apps${Date.now().toString(36)}` });
  const websiteId = demo.websites.events;
  let pageId = '';
  for (let n = 0; n < PAGES; n++) {
    pageId = newId('page');
    await database.db
      .insert(pages)
      .values({ id: pageId, websiteId, slug: `page-${n}`, title: `Page ${n}`, position: n + 1 });
    await database.db.insert(sections).values(
      Array.from({ length: PER_PAGE }, (_, i) => ({
        id: newId('sec'),
        websiteId,
        pageId,
        type: 'text',
        content: { heading: `Section ${i}`, body: 'Some **text** with [a link](/about). '.repeat(12) },
        position: i,
      })),
    );
  }
  await database.db.transaction((tx) => publishDraft(tx, websiteId, new Date()));

  const connect = async (apps: boolean) => {
    const c = new Client(
      { name: apps ? 'bench-apps' : 'bench-plain', version: '1.0.0' },
      {
        capabilities: apps ? { extensions: APPS_EXTENSION } : {},
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${demo.tokens.workspace}` } },
      }),
    );
    return c;
  };
  const [plain, apps] = [await connect(false), await connect(true)];
  const cases: Array<[string, Record<string, unknown>]> = [
    ['get_page', { pageId, websiteId }],
    ['list_draft_changes', { websiteId }],
    ['get_site_overview', { websiteId }],
  ];
  console.log(`${PAGES} pages x ${PER_PAGE} sections, ${CALLS} calls per client, clients alternating`);
  for (const [name, args] of cases) {
    const times = { plain: [] as number[], apps: [] as number[] };
    for (let i = 0; i < CALLS; i++) {
      for (const [who, c] of i % 2
        ? ([
            ['apps', apps],
            ['plain', plain],
          ] as const)
        : ([
            ['plain', plain],
            ['apps', apps],
          ] as const)) {
        const t0 = performance.now();
        const r = await c.callTool({ name, arguments: args });
        times[who].push(performance.now() - t0);
        if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
      }
    }
    const ratio = (q: number) => (p(times.apps, q) / p(times.plain, q)).toFixed(2);
    console.log(
      `${name.padEnd(20)} plain p50 ${p(times.plain, 50).toFixed(2)} ms p99 ${p(times.plain, 99).toFixed(2)} ms | ` +
        `app-capable p50 ${p(times.apps, 50).toFixed(2)} ms p99 ${p(times.apps, 99).toFixed(2)} ms | ` +
        `ratio p50 ${ratio(50)} p99 ${ratio(99)}`,
    );
  }
  await Promise.all([plain.close(), apps.close()]);
  await sg.close();
  await database.close();
}
