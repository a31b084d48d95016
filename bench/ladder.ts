// The performance ladder, in one run: every subject leg is preceded by a leg of the bare
// SDK stateless echo (the baseline), and its ratio is taken against that neighbouring echo, so drift on
// this shared machine hits both alike. Subjects: the node:http floor; get_page on PGlite and on
// PostgreSQL + Redis; update_section_text on both; tools/list at full scope on both; two `serve`
// processes on one PostgreSQL + Redis; get_page on a large database (100,000 connections, 10,000
// websites). Printed per leg: req/s, p50, p99, ratio to the echo, server CPU per call, database and
// Redis round trips per call (counted by the server, SITEGATE_COUNT_ROUND_TRIPS), peak RSS and the
// cores busy on the whole machine; the two-process row also names the most two processes could reach
// here, given the cores the one-process legs kept busy.
// PostgreSQL legs need BENCH_DATABASE_URL (default: DATABASE_URL) and REDIS_URL; without them they
// are skipped. BENCH_SECONDS (default 3) per leg, after a 1 s warm-up. BENCH_COMPILED=1 runs Sitegate
// from dist/ without tsx, as `npm start` and the `sitegate` command do (bench/compiled.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildIfStale, compiled, serveArgs } from './compiled.js';
import { measuredEnv } from './mcp.js';
import { freePort } from '../scripts/free-port.js';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ADMIN = 'bench-operator-token-0123456789';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
// BENCH_LEGS=<regular expression>: only the legs whose name matches (e.g. `update_section_text`).
const only = process.env.BENCH_LEGS ? new RegExp(process.env.BENCH_LEGS) : null;
const wanted = (name: string) => !only || only.test(name);

export type Proc = { child: ChildProcess; port: number; url: string; name: string };
export type Demo = {
  mcpUrl: string;
  tokens: Record<string, string>;
  pages: Record<string, string>;
  sections: Record<string, string>;
};
export type Row = {
  leg: string;
  rps: number;
  p50: number;
  p99: number;
  ratio?: number;
  cpuMs?: number;
  db?: number;
  redis?: number;
  rssMb?: number;
  /** Cores busy on the whole machine during the leg (server, load generator, PostgreSQL, Redis…). */
  busyCores?: number;
  bad: number;
  /** A leg measured beside another (no echo ratio). */
  beside?: boolean;
};

export function start(
  name: string,
  args: string[],
  env: Record<string, string>,
  ready: string,
): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${out}`)), 180_000);
    const on = (d: Buffer) => {
      out = (out + d.toString()).slice(-8000);
      if (out.includes(ready)) {
        clearTimeout(timer);
        const port = Number(env.PORT);
        resolve({ child, port, url: `http://127.0.0.1:${port}`, name });
      }
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}): ${out}`));
    });
  });
}

const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
const peakRssMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(status(pid))?.[1] ?? 0) / 1024);
/**
 * The machine's busy and total CPU time, in clock ticks summed over all cores (/proc/stat): user, nice,
 * system, idle, iowait, irq, softirq, steal. Guest time is already inside user and nice, so it is left
 * out; idle, iowait and steal (taken by the hypervisor, not by anything here) are not busy.
 */
function machineTicks(): { busy: number; total: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n', 1)[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number) as [number, number, number, number, number, number, number, number];
  const busy = user + nice + system + irq + softirq;
  return { busy, total: busy + idle + iowait + steal };
}

/** The process's user + system CPU time in milliseconds. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks (USER_HZ = 100)
}

async function counters(p: Proc): Promise<{ db: number; redis: number }> {
  const r = await fetch(`${p.url}/admin/stats?only=roundTrips`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  });
  const body = (await r.json()) as { roundTrips?: { db: number; redis: number } };
  return body.roundTrips ?? { db: 0, redis: 0 };
}

export function mcpRequest(token: string | undefined, method: string, params: Record<string, unknown>) {
  return {
    method: 'POST' as const,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  };
}

export type Target = { url: string; req: ReturnType<typeof mcpRequest>; proc?: Proc };

async function check(t: Target): Promise<void> {
  const r = await fetch(t.url, t.req);
  const text = await r.text();
  if (r.status !== 200 || text.includes('"isError":true') || text.includes('"ok":false')) {
    throw new Error(`${t.url} answered ${r.status}: ${text.slice(0, 300)}`);
  }
}

/** One leg: warm-up, then SECONDS of load split over the targets, measured together. */
export async function leg(
  name: string,
  targets: Target[],
  withCounts = true,
  connections = CONNECTIONS,
): Promise<Row> {
  for (const t of targets) await check(t);
  const per = Math.max(1, Math.floor(connections / targets.length));
  const run = (duration: number) =>
    Promise.all(targets.map((t) => autocannon({ url: t.url, ...t.req, connections: per, duration })));
  await run(1);
  const procs = [...new Set(targets.map((t) => t.proc).filter((p): p is Proc => !!p))];
  const before = await Promise.all(
    procs.map(async (p) => ({ cpu: cpuMs(p.child.pid!), n: withCounts ? await counters(p) : null })),
  );
  const ticks = machineTicks();
  const results = await run(SECONDS);
  const ticksAfter = machineTicks();
  const after = await Promise.all(
    procs.map(async (p) => ({ cpu: cpuMs(p.child.pid!), n: withCounts ? await counters(p) : null })),
  );
  const total = results.reduce((a, r) => a + r.requests.total, 0);
  const rps = results.reduce((a, r) => a + r.requests.average, 0);
  const row: Row = {
    leg: name,
    rps,
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    bad: results.reduce((a, r) => a + r.errors + r.timeouts + r.non2xx, 0),
    busyCores: ((ticksAfter.busy - ticks.busy) / (ticksAfter.total - ticks.total)) * cpus().length,
  };
  if (procs.length) {
    const cpu = procs.reduce((a, _p, i) => a + after[i]!.cpu - before[i]!.cpu, 0);
    row.cpuMs = cpu / Math.max(1, total);
    row.rssMb = Math.max(...procs.map((p) => peakRssMb(p.child.pid!)));
    if (withCounts) {
      // The counter request itself is one call with no round trips: negligible against thousands.
      row.db = procs.reduce((a, _p, i) => a + after[i]!.n!.db - before[i]!.n!.db, 0) / Math.max(1, total);
      row.redis =
        procs.reduce((a, _p, i) => a + after[i]!.n!.redis - before[i]!.n!.redis, 0) / Math.max(1, total);
    }
  }
  return row;
}

/**
 * Readers beside writers on one server: half the connections call get_page, half edit a
 * section, at once. Each edit empties the page caches, so readers need the database between writes;
 * one row per side.
 */
async function besideLegs(url: string, demo: Demo, proc: Proc, backend: string): Promise<Row[]> {
  const per = CONNECTIONS / 2;
  const both = (duration: number) =>
    Promise.all([
      autocannon({ url, ...getPage(demo), connections: per, duration }),
      autocannon({ url, ...edit(demo), connections: per, duration }),
    ]);
  await both(1);
  const results = await both(SECONDS);
  const names = [`get_page beside writes, ${backend}`, `update_section_text beside reads, ${backend}`];
  return results.map((r, i) => ({
    leg: `${names[i]} (${per} connections each)`,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.errors + r.timeouts + r.non2xx,
    rssMb: peakRssMb(proc.child.pid!),
    beside: true,
  }));
}

/** A database next to `url` (same server, `<name>_<suffix>`), created when missing. */
export async function sibling(url: string, suffix: string): Promise<string> {
  const u = new URL(url);
  const name = `${u.pathname.slice(1)}_${suffix}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
  if (!rowCount) await client.query(`create database "${name.replace(/"/g, '')}"`);
  await client.end();
  u.pathname = `/${name}`;
  return u.toString();
}

/** 10,000 websites of 1,000 workspaces, each with an owner, and 100,000 connections. Idempotent. */
async function seedLarge(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("select count(*)::int as n from connections where id like 'big_c_%'");
    if (rows[0].n >= 100_000) return;
    await client.query('begin');
    await client.query(`insert into companies (id, name) select 'big_co_' || g, 'Large ' || g
      from generate_series(1, 1000) g on conflict do nothing`);
    await client.query(`insert into users (id, email, name, password_hash)
      select 'big_u_' || g, 'big' || g || '@large.bench.test', 'Owner ' || g, 'x'
      from generate_series(1, 10000) g on conflict do nothing`);
    await client.query(`insert into websites (id, company_id, name)
      select 'big_w_' || g, 'big_co_' || ((g - 1) / 10 + 1), 'Site ' || g
      from generate_series(1, 10000) g on conflict do nothing`);
    await client.query(`insert into website_members (website_id, user_id, role)
      select 'big_w_' || g, 'big_u_' || g, 'owner' from generate_series(1, 10000) g on conflict do nothing`);
    await client.query(`insert into connections (id, company_id, created_by, name, website_id, scopes, token_hash, token_prefix)
      select 'big_c_' || g, 'big_co_' || ((g - 1) / 100 + 1), 'big_u_' || ((g - 1) / 10 + 1), 'Conn ' || g,
        'big_w_' || ((g - 1) / 10 + 1), '["site:read","content:write"]'::jsonb,
        md5(g::text) || md5('large' || g::text), 'sg_live_big'
      from generate_series(1, 100000) g on conflict do nothing`);
    await client.query('commit');
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

function serveEnv(dir: string, port: number, extra: Record<string, string>): Record<string, string> {
  return {
    ...measuredEnv(dir, port),
    SITEGATE_ADMIN_TOKEN: ADMIN,
    SITEGATE_COUNT_ROUND_TRIPS: '1',
    ...extra,
  };
}

export async function serveDemo(name: string, extra: Record<string, string>, reuseFrom?: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitegate-ladder-'));
  const port = await freePort();
  const out = reuseFrom ?? path.join(dir, 'demo.json');
  const args = serveArgs(out, ...(reuseFrom ? ['--reuse'] : []));
  const proc = await start(name, args, serveEnv(dir, port, extra), 'bench server');
  const demo = JSON.parse(readFileSync(out, 'utf8')) as Demo;
  return { proc, demo, out, mcp: `${proc.url}/api/mcp` };
}

const getPage = (d: Demo) =>
  mcpRequest(d.tokens.default, 'tools/call', { name: 'get_page', arguments: { pageId: d.pages.about } });
const edit = (d: Demo) =>
  mcpRequest(d.tokens.default, 'tools/call', {
    name: 'update_section_text',
    arguments: { pageId: d.pages.home, sectionId: d.sections.hero, text: { heading: 'Fresh bread daily' } },
  });
const toolsList = (d: Demo) => mcpRequest(d.tokens.all, 'tools/list', {});

export async function bench(): Promise<void> {
  const procs: Proc[] = [];
  const rows: Row[] = [];
  buildIfStale(root);
  try {
    const floorPort = await freePort();
    const floor = await start(
      'floor',
      [
        '-e',
        `const b=JSON.stringify({jsonrpc:'2.0',id:1,result:{content:[{type:'text',text:'hi'}]}});require('node:http').createServer((q,s)=>{q.resume();q.on('end',()=>{s.writeHead(200,{'content-type':'application/json'});s.end(b)})}).listen(${floorPort},'127.0.0.1',()=>console.log('ready'))`,
      ],
      { PORT: String(floorPort) },
      'ready',
    );
    procs.push(floor);
    const echoPort = await freePort();
    const echo = await start(
      'echo',
      ['--import', 'tsx', 'bench/baseline-server.ts', String(echoPort)],
      { PORT: String(echoPort) },
      'ready',
    );
    procs.push(echo);
    const echoTarget: Target = {
      url: `${echo.url}/mcp`,
      req: mcpRequest(undefined, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }),
      proc: echo,
    };
    const echoRatio = async (name: string, subject: () => Promise<Row>) => {
      if (!wanted(name)) return;
      const base = await leg('bare SDK echo (baseline)', [echoTarget], false);
      const row = await subject();
      row.ratio = row.rps / base.rps;
      rows.push(base, row);
      console.log(
        `  ${name}: ${row.rps.toFixed(0)} req/s (${row.ratio.toFixed(2)}x echo), p99 ${row.p99} ms, db ${row.db?.toFixed(2)}, redis ${row.redis?.toFixed(2)} per call`,
      );
    };

    /**
     * A subject against its reference (two processes against one, the large database against the
     * small): reference, subject, reference, then the echo and the subject again, so drift between legs
     * hits both alike. The row is the subject's last leg, beside its echo; the ratio to the reference
     * is taken on both pairs together, and each pair's is printed too. With `ceiling`, also the most
     * the subject could reach on this machine: every request costs the load generator, the server(s),
     * PostgreSQL and Redis CPU alike, so at best req/s grows until all cores are busy, i.e. by the
     * machine's cores over the cores the reference kept busy.
     */
    const againstReference = async (
      name: string,
      refName: string,
      reference: [leg: string, targets: Target[]],
      subject: [leg: string, targets: Target[]],
      ceiling = false,
    ) => {
      if (!wanted(name)) return;
      const ref1 = await leg(...reference);
      const sub1 = await leg(...subject);
      const ref2 = await leg(...reference);
      await echoRatio(name, async () => {
        const sub2 = await leg(...subject);
        const both = (sub1.rps + sub2.rps) / (ref1.rps + ref2.rps);
        const pairs = [sub1.rps / ref1.rps, sub2.rps / ref2.rps].map((r) => `${r.toFixed(2)}x`).join(', ');
        const busy = (ref1.busyCores! + ref2.busyCores!) / 2;
        const most = ceiling
          ? `; at most ${(cpus().length / busy).toFixed(2)}x on ${cpus().length} cores, the reference kept ${busy.toFixed(2)} busy`
          : '';
        sub2.leg += ` (${both.toFixed(2)}x ${refName}; pairs ${pairs}${most})`;
        return sub2;
      });
    };

    const beside = async (s: { mcp: string; demo: Demo; proc: Proc }, backend: string) => {
      if (!wanted(`beside ${backend}`)) return;
      const both = await besideLegs(s.mcp, s.demo, s.proc, backend);
      rows.push(...both);
      for (const r of both) console.log(`  ${r.leg}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms`);
    };

    await echoRatio('floor', () =>
      leg('floor: node:http, fixed JSON', [{ url: floor.url, req: echoTarget.req, proc: floor }], false),
    );

    const lite = await serveDemo('pglite', {});
    procs.push(lite.proc);
    await echoRatio('get_page pglite', () =>
      leg('get_page, PGlite', [{ url: lite.mcp, req: getPage(lite.demo), proc: lite.proc }]),
    );
    await echoRatio('update_section_text pglite', () =>
      leg('update_section_text, PGlite', [{ url: lite.mcp, req: edit(lite.demo), proc: lite.proc }]),
    );
    await beside(lite, 'PGlite');
    await echoRatio('tools/list pglite', () =>
      leg('tools/list, all scopes, PGlite', [{ url: lite.mcp, req: toolsList(lite.demo), proc: lite.proc }]),
    );
    lite.proc.child.kill();

    if (!pgUrl || !redisUrl) {
      console.log('(no BENCH_DATABASE_URL/DATABASE_URL and REDIS_URL: PostgreSQL legs skipped)');
    } else {
      const run = randomBytes(4).toString('hex');
      const pgEnv = {
        DATABASE_URL: pgUrl,
        REDIS_URL: redisUrl,
        BENCH_TAG: `bench${run}`,
        BENCH_LIMIT_PREFIX: `bench:${run}`,
      };
      const one = await serveDemo('postgres', pgEnv);
      procs.push(one.proc);
      await echoRatio('get_page postgres', () =>
        leg('get_page, PostgreSQL + Redis', [{ url: one.mcp, req: getPage(one.demo), proc: one.proc }]),
      );
      await echoRatio('update_section_text postgres', () =>
        leg('update_section_text, PostgreSQL + Redis', [
          { url: one.mcp, req: edit(one.demo), proc: one.proc },
        ]),
      );
      await beside(one, 'PostgreSQL + Redis');
      await echoRatio('tools/list postgres', () =>
        leg('tools/list, all scopes, PostgreSQL + Redis', [
          { url: one.mcp, req: toolsList(one.demo), proc: one.proc },
        ]),
      );
      if (!wanted('two processes') && !wanted('large database')) {
        one.proc.child.kill();
        return;
      }
      const two = await serveDemo('postgres-2', pgEnv, one.out);
      procs.push(two.proc);
      const onePage = { url: one.mcp, req: getPage(one.demo), proc: one.proc };
      await againstReference(
        'two processes',
        'one process',
        ['get_page, one process (reference)', [onePage]],
        [
          'get_page, two processes, PostgreSQL + Redis',
          [onePage, { url: `${two.proc.url}/api/mcp`, req: getPage(one.demo), proc: two.proc }],
        ],
        true,
      );
      one.proc.child.kill();
      two.proc.child.kill();

      const largeUrl = await sibling(pgUrl, 'large');
      const large = await serveDemo('postgres-large', { ...pgEnv, DATABASE_URL: largeUrl });
      procs.push(large.proc);
      await seedLarge(largeUrl);
      const small = await serveDemo('postgres-small', { ...pgEnv, BENCH_TAG: `${pgEnv.BENCH_TAG}s` });
      procs.push(small.proc);
      await againstReference(
        'large database',
        'small database',
        [
          'get_page, small database (reference)',
          [{ url: small.mcp, req: getPage(small.demo), proc: small.proc }],
        ],
        [
          'get_page, 100,000 connections / 10,000 websites',
          [{ url: large.mcp, req: getPage(large.demo), proc: large.proc }],
        ],
      );
      small.proc.child.kill();
      large.proc.child.kill();
    }
  } finally {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill();
    printTable(rows);
  }
}

export function printTable(rows: Row[]): void {
  const cpu = cpus();
  console.log(
    `\nLadder, ${CONNECTIONS} connections, ${SECONDS} s legs, ${new Date().toISOString().slice(0, 10)}, ${cpu.length} × ${cpu[0]?.model ?? '?'}, Node ${process.version}, Sitegate ${compiled ? 'compiled (dist/)' : 'through tsx (src/)'}`,
  );
  console.log(
    '| leg | req/s | p50 ms | p99 ms | vs echo | server CPU ms/call | DB trips/call | Redis trips/call | peak RSS MB | machine cores busy | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const f = (n: number | undefined, d = 2) => (n === undefined ? '–' : n.toFixed(d));
  for (const r of rows) {
    console.log(
      `| ${r.leg} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.beside ? '–' : r.ratio === undefined ? '1' : `${r.ratio.toFixed(2)}×`} | ${f(r.cpuMs)} | ${f(r.db)} | ${f(r.redis)} | ${r.rssMb ?? '–'} | ${f(r.busyCores)} | ${r.bad} |`,
    );
  }
}

if (existsSync(root) && import.meta.url === `file://${process.argv[1]}`) await bench();
