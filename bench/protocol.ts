// Benchmark: the SDK v2 MCP path against the v1 path it replaced, in the same run, same
// edge, same handlers. Two Sitegate processes on their own embedded databases: one serving the
// product's v2 endpoint, one the v1 baseline (bench/v1-endpoint.ts). autocannon drives alternating
// legs — `tools/call get_page` and `tools/list` on the 2025 wire (the only one v1 speaks), and
// get_page on the 2026-07-28 wire (v2 only) — at 32 connections; medians over the rounds.
// Target: v2 no more than 10% slower than v1 at the median.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { measuredEnv } from './mcp.js';
import { freePort } from '../scripts/free-port.js';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

type Served = { child: ChildProcess; mcpUrl: string; token: string; pageId: string };
type Leg = { rps: number; p50: number; p99: number; bad: number };

async function serve(which: 'v1' | 'v2'): Promise<Served> {
  const dir = mkdtempSync(path.join(tmpdir(), `sitegate-bench-${which}-`));
  const out = path.join(dir, 'demo.json');
  // Both paths from src/ through tsx: the v1 endpoint exists only as TypeScript, and a compiled v2
  // beside it would compare builds, not protocol paths (so BENCH_COMPILED is cleared).
  const env = {
    ...process.env,
    ...measuredEnv(dir, await freePort()),
    MCP_PATH_UNDER_TEST: which,
    BENCH_COMPILED: '',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/serve.mjs', out], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${which} server did not start: ${log}`)), 120_000);
    const on = (d: Buffer) => {
      log += d.toString();
      if (log.includes('bench server')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.once('exit', () => reject(new Error(`${which} server exited: ${log}`)));
  });
  const demo = JSON.parse(readFileSync(out, 'utf8'));
  return { child, mcpUrl: demo.mcpUrl, token: demo.tokens.default, pageId: demo.pages.about };
}

function request(s: Served, method: string, params: Record<string, unknown>, wire: '2025' | '2026') {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${s.token}`,
  };
  let body: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method, params };
  if (wire === '2026') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = method;
    if (typeof params.name === 'string') headers['mcp-name'] = params.name;
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    };
    body = { ...body, params: { ...params, _meta } };
  } else {
    headers['mcp-protocol-version'] = '2025-11-25';
  }
  return { headers, body: JSON.stringify(body) };
}

async function drive(s: Served, method: string, params: Record<string, unknown>, wire: '2025' | '2026') {
  const { headers, body } = request(s, method, params, wire);
  // One checked call first: a leg that measures errors would be worthless.
  const check = await fetch(s.mcpUrl, { method: 'POST', headers, body });
  const text = await check.text();
  if (check.status !== 200 || text.includes('"isError":true') || text.includes('"error"')) {
    throw new Error(`${method} on ${s.mcpUrl} (${wire}) answered ${check.status}: ${text.slice(0, 300)}`);
  }
  const opts = { url: s.mcpUrl, method: 'POST' as const, connections: CONNECTIONS, headers, body };
  await autocannon({ ...opts, duration: 2 }); // warm-up
  const r = await autocannon({ ...opts, duration: SECONDS });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.errors + r.timeouts + r.non2xx,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function bench(): Promise<void> {
  const v1 = await serve('v1');
  const v2 = await serve('v2');
  const legs: Record<string, Leg[]> = {};
  const record = (name: string, leg: Leg) => {
    legs[name] ??= [];
    legs[name].push(leg);
  };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate who goes first, so drift on this shared machine hits both alike.
      const order: Array<['v1' | 'v2', Served]> =
        round % 2
          ? [
              ['v2', v2],
              ['v1', v1],
            ]
          : [
              ['v1', v1],
              ['v2', v2],
            ];
      for (const [name, s] of order) {
        record(
          `${name} get_page (2025 wire)`,
          await drive(s, 'tools/call', { name: 'get_page', arguments: { pageId: s.pageId } }, '2025'),
        );
        record(`${name} tools/list (2025 wire)`, await drive(s, 'tools/list', {}, '2025'));
      }
      record(
        'v2 get_page (2026 wire)',
        await drive(v2, 'tools/call', { name: 'get_page', arguments: { pageId: v2.pageId } }, '2026'),
      );
    }
  } finally {
    v1.child.kill();
    v2.child.kill();
  }
  console.log(
    `\nMCP path v2 vs v1, ${CONNECTIONS} connections, ${SECONDS} s legs, ${ROUNDS} rounds, medians`,
  );
  console.log('| leg | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|');
  for (const [name, ls] of Object.entries(legs)) {
    const m = (k: keyof Leg) => median(ls.map((l) => l[k]));
    console.log(
      `| ${name} | ${m('rps').toFixed(0)} | ${m('p50')} | ${m('p99')} | ${ls.reduce((a, l) => a + l.bad, 0)} |`,
    );
  }
  for (const what of ['get_page (2025 wire)', 'tools/list (2025 wire)']) {
    const a = legs[`v1 ${what}`]!;
    const b = legs[`v2 ${what}`]!;
    const rps = median(b.map((l) => l.rps)) / median(a.map((l) => l.rps));
    const p50 = median(b.map((l) => l.p50)) / median(a.map((l) => l.p50));
    console.log(`v2/v1 ${what}: req/s ${rps.toFixed(2)}x, p50 ${p50.toFixed(2)}x (target: req/s >= 0.90x)`);
  }
  const modern = median(legs['v2 get_page (2026 wire)']!.map((l) => l.rps));
  const legacy = median(legs['v1 get_page (2025 wire)']!.map((l) => l.rps));
  console.log(`v2 on the 2026 wire / v1 get_page req/s: ${(modern / legacy).toFixed(2)}x`);
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
