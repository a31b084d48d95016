// Benchmark (issue: foundation): `tools/call get_page` against Sitegate's full stack (auth, gate,
// limits, database, Activity) vs the bare SDK stateless echo server, both driven in the same run by
// autocannon from this (separate) process at 32 connections over keep-alive HTTP.
// BENCH_COMPILED=1: Sitegate runs from dist/ (rebuilt first when stale) without tsx, as `sitegate` does.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildIfStale, compiled, productNodeFlags } from './compiled.js';
import { freePort } from '../scripts/free-port.js';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

type Result = { label: string; rps: number; p50: number; p99: number; errors: number; non2xx: number };

function start(
  args: string[],
  env: Record<string, string>,
  ready: (out: string) => boolean,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const loader = args.some((a) => a.endsWith('.ts')) ? ['--import', 'tsx'] : [];
    const child = spawn(process.execPath, [...loader, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    const on = (d: Buffer) => {
      out += d.toString();
      if (ready(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
  });
}

async function drive(
  label: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Result> {
  const opts = {
    url,
    method: 'POST' as const,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify(body),
  };
  await autocannon({ ...opts, duration: 2 }); // warm-up
  const r = await autocannon(opts);
  return {
    label,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

function currentRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** The environment of a measured Sitegate process: its own embedded database, limits out of the way. */
export function measuredEnv(dir: string, port: number): Record<string, string> {
  return {
    PORT: String(port),
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_CONNECTION: '100000000',
    RATE_LIMIT_PER_WORKSPACE: '100000000',
    DATABASE_URL: '',
    REDIS_URL: '',
    SITEGATE_ADMIN_TOKEN: 'bench-operator-token-0123456789',
    NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS ?? '',
  };
}

export async function bench(): Promise<void> {
  buildIfStale(root);
  const basePort = await freePort();
  const baseline = await start(['bench/baseline-server.ts', String(basePort)], {}, (o) =>
    o.includes('ready'),
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'sitegate-bench-'));
  const sgPort = await freePort(new Set([basePort]));
  const demoFile = path.join(dir, 'demo.json');
  const env = measuredEnv(dir, sgPort);
  const args = [
    ...productNodeFlags,
    compiled ? 'dist/main.js' : 'src/main.ts',
    'serve',
    '--demo',
    '--demo-out',
    demoFile,
  ];
  const banner = (o: string) => o.includes('Sitegate demo is running');
  // The first start creates the embedded database (PGlite's initdb peaks near 900 MB RSS once);
  // the measured process is a second start on that data directory, as a running service is.
  const seeding = await start(args, env, banner);
  const seedPeak = peakRssMb(seeding.pid!);
  await new Promise<void>((r) => {
    seeding.once('exit', () => r());
    seeding.kill('SIGTERM');
  });
  const sitegate = await start(args, env, banner);
  let rssMax = 0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, currentRssMb(sitegate.pid!));
  }, 200);
  try {
    const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
    const sgUrl = `http://127.0.0.1:${sgPort}/api/mcp`;
    const list = await fetch(sgUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${demo.tokens.default}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_pages', arguments: {} },
      }),
    });
    const pageId = ((await list.json()) as any).result.structuredContent.data.pages[0].pageId;
    const b = await drive(
      'bare SDK stateless echo (new McpServer per request)',
      `http://127.0.0.1:${basePort}/mcp`,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
      {},
    );
    const s = await drive(
      'Sitegate get_page (auth, gate, limits, PGlite, Activity)',
      sgUrl,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: process.env.BENCH_TOOL ?? 'get_page', arguments: { pageId } },
      },
      { authorization: `Bearer ${demo.tokens.default}` },
    );
    clearInterval(sampler);
    const stats = (await (
      await fetch(`http://127.0.0.1:${sgPort}/admin/stats`, {
        headers: { authorization: 'Bearer bench-operator-token-0123456789' },
      })
    ).json()) as { memoryMb: Record<string, number> };
    const rss = peakRssMb(sitegate.pid!);
    console.log(`\nMCP tools/call, ${CONNECTIONS} connections, ${SECONDS} s each, same run`);
    console.log('| server | req/s | p50 ms | p99 ms | errors | non-2xx |');
    console.log('|---|---|---|---|---|---|');
    for (const r of [b, s])
      console.log(`| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
    console.log(`Sitegate / baseline req/s ratio: ${(s.rps / b.rps).toFixed(2)}x (target >= 2x)`);
    console.log(`Sitegate p99: ${s.p99} ms (target <= 15 ms)`);
    console.log(
      `Sitegate RSS: peak ${rss} MB over the serving process's life, max ${rssMax} MB sampled under load (target <= 300 MB under load; idle <= 250 MB: BENCH=startup); the first start, with initdb, peaked at ${seedPeak} MB`,
    );
    console.log(`Sitegate memory after the run (MB): ${JSON.stringify(stats.memoryMb)}`);
  } finally {
    baseline.kill();
    sitegate.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
