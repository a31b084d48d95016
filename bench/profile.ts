// CPU profile of the PostgreSQL get_page leg, summarised by layer. Starts one
// `bench/serve.mjs` on PostgreSQL + Redis with --cpu-prof, drives get_page for BENCH_SECONDS at 32
// connections, stops it and attributes self time to layers by the script each sample falls in.
// Usage: [BENCH_DATABASE_URL=… REDIS_URL=…] tsx bench/profile.ts [repo root to profile, default this one]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { productNodeFlags } from './compiled.js';
import { freePort } from '../scripts/free-port.js';

const LAYERS: Array<[string, RegExp]> = [
  [
    'database driver (pg, pg-protocol)',
    /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-\w+|pgpass)\//,
  ],
  ['Drizzle (query building, mapping)', /node_modules\/drizzle-orm\//],
  ['Redis client (ioredis)', /node_modules\/(ioredis|redis-parser|rate-limiter-flexible|@ioredis)\//],
  ['MCP SDK', /node_modules\/@modelcontextprotocol\//],
  ['zod', /node_modules\/zod\//],
  ['HTTP (Hono, @hono/node-server)', /node_modules\/(hono|@hono)\//],
  ['Ajv', /node_modules\/ajv/],
  ['logging (pino)', /node_modules\/(pino|sonic-boom|thread-stream)/],
  ['Sitegate src/', /\/src\//],
  ['other node_modules', /node_modules\//],
  ['Node internals (net, http, streams…)', /^node:|^internal\//],
];

type Node = { id: number; callFrame: { url: string; functionName: string }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

function layerOf(n: Node): string {
  const url = n.callFrame.url;
  const fn = n.callFrame.functionName;
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(idle)' || fn === '(program)') return fn;
  if (!url) return 'native / JSON / builtins';
  for (const [name, re] of LAYERS) if (re.test(url)) return name;
  return 'other';
}

/** Shares of busy CPU by layer, over the samples taken in the last `seconds` before `endTime`. */
export function summarise(file: string, seconds: number): Array<[string, number]> & { busyMs?: number } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  const from = p.endTime - seconds * 1e6; // start-up and seeding are not the leg
  let t = p.startTime;
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i] ?? 0;
    if (t < from) return;
    const layer = layerOf(byId.get(id)!);
    totals.set(layer, (totals.get(layer) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  totals.delete('(idle)');
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  const shares: Array<[string, number]> & { busyMs?: number } = [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => [k, (100 * v) / busy]);
  shares.busyMs = busy / 1000;
  return shares;
}

const serverScript = (root: string) =>
  existsSync(path.join(root, 'bench/serve.mjs')) ? 'bench/serve.mjs' : 'bench/serve.ts';

export async function bench(): Promise<void> {
  const root = path.resolve(
    process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..'),
  );
  // PostgreSQL + Redis when both are given, else the embedded default (PGlite, in-process limits).
  const url = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const pg = Boolean(url && process.env.REDIS_URL);
  const backend = pg ? 'PostgreSQL + Redis' : 'PGlite';
  const dir = mkdtempSync(path.join(tmpdir(), 'sitegate-profile-'));
  const port = await freePort();
  const run = randomBytes(4).toString('hex');
  const out = path.join(dir, 'demo.json');
  const child = spawn(
    process.execPath,
    // With the command's V8 flags, as `npm start` runs it. An older checkout (A/B against another
    // commit) still has the TypeScript server.
    [...productNodeFlags, '--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', serverScript(root), out],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: path.join(dir, 'data'),
        DATABASE_URL: pg ? url : '',
        REDIS_URL: pg ? process.env.REDIS_URL : '',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_CONNECTION: '100000000',
        RATE_LIMIT_PER_WORKSPACE: '100000000',
        BENCH_TAG: `prof${run}`,
        BENCH_LIMIT_PREFIX: `prof:${run}`,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((r) => child.stdout!.on('data', (d) => String(d).includes('bench server') && r()));
  const demo = JSON.parse(readFileSync(out, 'utf8'));
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  // BENCH_PROFILE=write profiles update_section_text instead of get_page, BENCH_PROFILE=list tools/list.
  const write = process.env.BENCH_PROFILE === 'write';
  const list = process.env.BENCH_PROFILE === 'list';
  const tool = list ? 'tools/list' : write ? 'update_section_text' : 'get_page';
  const r = await autocannon({
    url: demo.mcpUrl,
    method: 'POST',
    connections: 32,
    duration: seconds,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${list ? demo.tokens.all : demo.tokens.default}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: list ? 'tools/list' : 'tools/call',
      params: list
        ? {}
        : write
          ? {
              name: 'update_section_text',
              arguments: {
                pageId: demo.pages.home,
                sectionId: demo.sections.hero,
                text: { heading: 'Fresh bread daily' },
              },
            }
          : { name: 'get_page', arguments: { pageId: demo.pages.about } },
    }),
  });
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
  // The main thread's profile: Node names each file CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile, and
  // the main thread is thread 0 (tsx's loader and pino's worker write their own, sometimes larger).
  const file = readdirSync(dir).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (!file) throw new Error('no profile written');
  console.log(`\n${tool} on ${backend}, ${r.requests.total} calls, profile ${path.join(dir, file)}`);
  const shares = summarise(path.join(dir, file), seconds);
  const perCall = (shares.busyMs ?? 0) / Math.max(1, r.requests.total);
  console.log(`busy CPU in the leg: ${perCall.toFixed(2)} ms per call`);
  console.log('| layer | share of busy CPU | ms per call |');
  console.log('|---|---|---|');
  for (const [layer, pct] of shares) {
    if (pct >= 0.5) console.log(`| ${layer} | ${pct.toFixed(1)} % | ${((perCall * pct) / 100).toFixed(3)} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
