// Writes spread over a website, and two processes writing one website. Agents rarely edit one
// section all day: here 16 clients each edit a text section of their own on four pages of one website
// (each request a different text), on PGlite and on PostgreSQL + Redis; then the same website written
// through two `serve` processes sharing the database, against one process with the same clients.
// Legs, in one run so that drift hits both sides alike:
// - one section, 16 clients (what held saves were first measured on), one process;
// - 16 sections on 4 pages, 16 clients, one process;
// - 8 sections, each edited through both processes (16 clients): the shape that deadlocked two
//   processes' groups, against the same 16 clients on one process (reference, before and after).
// Printed per leg: req/s, p50, p99, failed calls (an `isError` answer counts), server CPU per call,
// round trips per call, peak RSS. BENCH_SECONDS per leg (default 3); PostgreSQL legs need
// BENCH_DATABASE_URL (or DATABASE_URL) and REDIS_URL.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildIfStale } from './compiled.js';
import {
  type Demo,
  type Proc,
  type Row,
  type Target,
  leg,
  mcpRequest,
  printTable,
  serveDemo,
  sibling,
} from './ladder.js';

const CLIENTS = 16;
const root = new URL('..', import.meta.url).pathname;
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

type Site = { mcp: string; demo: Demo; proc: Proc };

/** One tools/call over HTTP; throws on anything but a successful answer. */
async function call(s: Site, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await fetch(s.mcp, mcpRequest(s.demo.tokens.default, 'tools/call', { name, arguments: args }));
  const body = (await r.json()) as { result?: { structuredContent?: { ok: boolean; data: unknown } } };
  const sc = body.result?.structuredContent;
  if (!sc?.ok) throw new Error(`${name} failed: ${JSON.stringify(body).slice(0, 300)}`);
  return sc.data as Record<string, unknown>;
}

/** Four new pages of four text sections each on the demo's main website: [pageId, sectionId][]. */
async function spreadSections(s: Site): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (let p = 0; p < 4; p++) {
    const page = await call(s, 'create_page', { title: `Spread ${p} ${randomBytes(3).toString('hex')}` });
    for (let k = 0; k < 4; k++) {
      const added = await call(s, 'add_section', {
        pageId: page.pageId,
        type: 'text',
        content: { heading: `Part ${k}`, body: 'Opening text.' },
      });
      out.push([page.pageId as string, added.sectionId as string]);
    }
  }
  return out;
}

/** Calls answered with an error (autocannon counts only HTTP statuses), per leg. */
let failed = 0;

/**
 * A client that edits one section, each request with a new text, so no answer can be a repeat of the
 * last one; an answer with `isError` counts as failed.
 */
function editTarget(s: Site, pageId: string, sectionId: string, field: string): Target {
  let n = 0;
  const body = (text: string) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'update_section_text', arguments: { pageId, sectionId, text: { [field]: text } } },
    });
  const base = mcpRequest(s.demo.tokens.default, 'tools/call', {});
  return {
    url: s.mcp,
    proc: s.proc,
    req: {
      ...base,
      body: body('First edit.'),
      requests: [
        {
          method: 'POST',
          headers: base.headers,
          setupRequest: (req: Record<string, unknown>) => ({ ...req, body: body(`Edit ${n++}.`) }),
          onResponse: (status: number, text: string) => {
            if (status === 200 && text.includes('"isError":true')) failed += 1;
          },
        },
      ],
    } as Target['req'],
  };
}

// BENCH_LEGS=<regular expression>: only the legs whose name matches (the others answer an empty row).
const only = process.env.BENCH_LEGS ? new RegExp(process.env.BENCH_LEGS) : null;

/** A leg, with the calls that answered an error counted among its errors. */
async function writeLeg(name: string, targets: Target[]): Promise<Row> {
  if (only && !only.test(name)) return { leg: `${name} (skipped)`, rps: 0, p50: 0, p99: 0, bad: 0 };
  failed = 0;
  const row = await leg(name, targets, true, CLIENTS);
  row.bad += failed;
  return row;
}

/** Drops the run's database (made by `sibling`) once its servers are gone. */
async function dropSibling(server: string, url: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 500));
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(
      `drop database if exists "${new URL(url).pathname.slice(1).replace(/"/g, '')}" with (force)`,
    );
  } finally {
    await client.end();
  }
}

export async function bench(): Promise<void> {
  buildIfStale(root);
  const rows: Row[] = [];
  const procs: Proc[] = [];
  let database: string | undefined;
  const spread = async (backend: string, extra: Record<string, string>) => {
    const one = await serveDemo(`${backend}-1`, extra);
    procs.push(one.proc);
    const sections = await spreadSections(one);
    const hero: Array<[string, string]> = [[one.demo.pages.home!, one.demo.sections.hero!]];
    const on = (s: Site, list: Array<[string, string]>, times = 1, field = 'body') =>
      list.flatMap(([p, id]) => Array.from({ length: times }, () => editTarget(s, p, id, field)));
    rows.push(
      await writeLeg(`one section, ${CLIENTS} clients, ${backend}`, on(one, hero, CLIENTS, 'heading')),
    );
    rows.push(await writeLeg(`16 sections on 4 pages, ${backend}`, on(one, sections)));
    return { one, sections, on };
  };
  try {
    if (!only || only.test('PGlite')) await spread('PGlite', {});
    for (const p of procs.splice(0)) p.child.kill();
    if (!pgUrl || !redisUrl) {
      console.log('(no BENCH_DATABASE_URL/DATABASE_URL and REDIS_URL: PostgreSQL legs skipped)');
      return;
    }
    const run = randomBytes(4).toString('hex');
    database = await sibling(pgUrl, `writes_${run}`);
    const pgEnv = {
      DATABASE_URL: database,
      REDIS_URL: redisUrl,
      BENCH_LIMIT_PREFIX: `bench:${run}`,
    };
    const { one, sections, on } = await spread('PostgreSQL + Redis', pgEnv);
    const two = await serveDemo('PostgreSQL-2', pgEnv, one.out);
    procs.push(two.proc);
    const eight = sections.slice(0, 8);
    const shared = (s: Site) => ({ ...s, mcp: `${s.proc.url}/api/mcp`, demo: one.demo });
    const reference = () => writeLeg('8 sections, 16 clients, one process (reference)', on(one, eight, 2));
    const both = () =>
      writeLeg('8 sections, each through both processes, 16 clients', [
        ...on(one, eight),
        ...on(shared(two), eight),
      ]);
    if (only && !only.test('processes')) return;
    const r1 = await reference();
    const t1 = await both();
    const r2 = await reference();
    const t2 = await both();
    rows.push(r1, t1, r2, t2);
    const ratio = (t1.rps + t2.rps) / (r1.rps + r2.rps);
    console.log(`  two processes against one: ${ratio.toFixed(2)}x the writes a second`);
  } finally {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill();
    if (database) await dropSibling(pgUrl!, database).catch(() => {});
    printTable(rows);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await bench();
  process.exit(0);
}
