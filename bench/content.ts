// Benchmark of the draft-editing surface: update_section_text and list_draft_changes on a
// 50-page, 500-section site, driven through the real HTTP server with the official MCP SDK Client
// (Streamable HTTP, one call at a time). Baseline in the same run: get_brand, a small read through the
// same path (auth, limits, gate, transaction, Activity). Target: list_draft_changes p99 < 50 ms.
// Runs on in-memory PGlite, or on PostgreSQL when DATABASE_URL is set.
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { seedDemo } from '../src/demo/seed.js';
import { newId } from '../src/kernel/ids.js';
import { pages, sections, websites } from '../src/db/schema.js';
import { draftChanges } from '../src/domain/pages/read.js';
import { publishDraft } from '../src/domain/sites/publish.js';
import { createSitegate } from '../src/runtime.js';
import { freePort } from '../scripts/free-port.js';

const PAGES = 50;
const PER_PAGE = 10;
const CALLS = 300;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms  p99 ${pct(xs, 99).toFixed(2)} ms`;

export async function bench(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitegate-bench-'));
  const config = loadConfig({
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_CONNECTION: '1000000',
    RATE_LIMIT_PER_WORKSPACE: '1000000',
  });
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, memory: true });
  const sg = await createSitegate(config, { database, log: pino({ level: 'silent' }) });
  const { url } = await sg.listen();
  const demo = await seedDemo(database.db, { tag: `bench${Date.now().toString(36)}` });
  const websiteId = demo.websites.events; // replace its one page with 50 pages x 10 sections

  const targets: Array<{ pageId: string; sectionId: string }> = [];
  for (let p = 0; p < PAGES; p++) {
    const pageId = newId('page');
    await database.db
      .insert(pages)
      .values({ id: pageId, websiteId, slug: `page-${p}`, title: `Page ${p}`, position: p + 1 });
    const rows = Array.from({ length: PER_PAGE }, (_, i) => ({
      id: newId('sec'),
      websiteId,
      pageId,
      type: i % 2 ? 'text' : 'hero',
      content:
        i % 2
          ? { heading: `Section ${i}`, body: 'Some **text** '.repeat(20) }
          : { heading: `Hero ${p}.${i}` },
      position: i,
    }));
    await database.db.insert(sections).values(rows);
    for (const r of rows) if (r.type === 'hero') targets.push({ pageId, sectionId: r.id });
  }
  await database.db.transaction((tx) => publishDraft(tx, websiteId, new Date()));

  const client = new Client({ name: 'sitegate-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${demo.tokens.workspace}` } },
    }),
  );
  const time = async (name: string, args: () => Record<string, unknown>) => {
    const out: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      const r = await client.callTool({ name, arguments: { websiteId, ...args() } });
      out.push(performance.now() - t0);
      if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content).slice(0, 200)}`);
    }
    return out;
  };
  await time('get_brand', () => ({})); // warm-up
  const base = await time('get_brand', () => ({}));
  let n = 0;
  const edit = await time('update_section_text', () => ({
    ...targets[n++ % targets.length]!,
    text: { heading: `Edited ${n}` },
  }));
  // Every hero now differs from the published snapshot: list_draft_changes reports 250 changes.
  const diff = await time('list_draft_changes', () => ({}));

  // The same comparison in-process, without HTTP/MCP/gate: what the domain function itself costs.
  const [site] = await database.db.select().from(websites).where(eq(websites.id, websiteId));
  const domain: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await draftChanges(database.db, site!);
    domain.push(performance.now() - t0);
  }

  const ratio = (xs: number[]) => (pct(xs, 50) / pct(base, 50)).toFixed(2);
  console.log(
    `content bench (${database.kind}, ${PAGES} pages, ${PAGES * PER_PAGE} sections, ${CALLS} calls each, SDK client over HTTP)`,
  );
  console.log(`  (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores at the end)`);
  console.log(`  get_brand (baseline)   ${fmt(base)}`);
  console.log(`  update_section_text    ${fmt(edit)}  (p50 ${ratio(edit)}x baseline)`);
  console.log(
    `  list_draft_changes     ${fmt(diff)}  (p50 ${ratio(diff)}x baseline)  target p99 < 50 ms: ${pct(diff, 99) < 50 ? 'met' : 'NOT met'}`,
  );
  console.log(`  draftChanges in-process ${fmt(domain)}`);
  await client.close();
  await sg.close();
  await database.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
