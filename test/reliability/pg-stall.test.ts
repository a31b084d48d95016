// PostgreSQL's traffic stalls for over 10 s (a partition, a frozen VM: no reset, nothing answers) under
// two real `sitegate serve` processes, through the TCP proxy (test/helpers/tcp-proxy.ts). Before,
// every MCP call hung in both processes and still hung after the network came back, and /readyz said
// 200; later, calls waited out the statement bound (15 s and more). Now every call, whether a write
// caught mid-transaction or a read or write sent during the stall, is answered within the interactive
// bound (DB_CALL_TIMEOUT_MS) plus a second, as `unavailable`, changing nothing; /readyz says 503 while
// it lasts; a process stopped (SIGTERM) during the stall ends within SHUTDOWN_DRAIN_MS +
// SHUTDOWN_TIMEOUT_MS; once the traffic flows again both processes serve within seconds, unrestarted.
// PostgreSQL only, like the other PostgreSQL fault tests (CI's PostgreSQL pass runs it).
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../helpers/process.js';
import { postMcp } from '../helpers/server.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';
import { type Child, besides, backend, newDataDir, start, stop } from './harness.js';
import { alive, callTool, expectUnavailable, readyz, servingAgain } from './pg-kit.js';

const url = process.env.DATABASE_URL;
let store: Awaited<ReturnType<typeof backend>>;
let proxy: TcpProxy;
let a: Child;
let b: Child;
let c: Child;
let watch: pg.Client;

/** The interactive bound of both processes, shorter than their statement bound, which it overrides. */
const CALL_MS = 2000;
const BOUNDS = {
  DB_CALL_TIMEOUT_MS: String(CALL_MS),
  DB_STATEMENT_TIMEOUT_MS: '6000',
  DB_CONNECT_TIMEOUT_MS: '2000',
};
/** A stop's two bounds, for the process stopped during the stall. */
const STOP = { SHUTDOWN_DRAIN_MS: '500', SHUTDOWN_TIMEOUT_MS: '3000' };

/** A call, with how long its answer took from the moment it was sent. */
const timed = async (base: string, token: string, name: string, args: Record<string, unknown>) => {
  const sent = performance.now();
  const answer = await callTool(base, token, name, args, 30_000);
  return { ...answer, ms: performance.now() - sent };
};

/** The database's URL through the proxy, with the process's name on its connections. */
const through = (databaseUrl: string, name: string) => {
  const u = new URL(databaseUrl);
  u.host = proxy.address;
  u.searchParams.set('application_name', name);
  return u.toString();
};

beforeAll(async () => {
  if (!url) return;
  store = await backend();
  const target = new URL(store.databaseUrl!);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  a = await start(newDataDir('pg-stall-a'), {
    ...BOUNDS,
    DATABASE_URL: through(store.databaseUrl!, 'sg_stall_a'),
  });
  b = besides(
    await start(newDataDir('pg-stall-b'), {
      ...BOUNDS,
      DATABASE_URL: through(store.databaseUrl!, 'sg_stall_b'),
    }),
    a,
  );
  c = besides(
    await start(newDataDir('pg-stall-c'), {
      ...BOUNDS,
      ...STOP,
      DATABASE_URL: through(store.databaseUrl!, 'sg_stall_c'),
    }),
    a,
  );
  watch = new pg.Client({ connectionString: store.databaseUrl });
  await watch.connect();
}, 240_000);
afterAll(async () => {
  proxy?.heal();
  await watch?.end();
  for (const x of [a, b, c]) if (x && alive(x)) await stop(x);
  await proxy?.close();
  await store?.drop();
});

const pagesTitled = async (titles: string[]) =>
  Number(
    (await watch.query('select count(*)::int as n from pages where title = any($1)', [titles])).rows[0].n,
  );

it.runIf(url)(
  'PostgreSQL stalls 10 s: every call is answered unavailable within the bound plus a second, /readyz is 503, a stop ends within its bounds, both processes serve again after',
  async () => {
    const site = a.demo.websites.main;
    const token = a.demo.tokens.all;
    for (const c of [a, b])
      expect((await callTool(c.base, token, 'list_pages', { websiteId: site })).ok).toBe(true);

    // A write of each process is inside its transaction when the traffic stops: the test holds the
    // website's row until both wait on a lock, stalls, then lets the row go (PostgreSQL goes on,
    // its answers are held on the way).
    const lock = new pg.Client({ connectionString: store.databaseUrl });
    await lock.connect();
    const titles = [
      'Caught by the stall A',
      'Caught by the stall B',
      'During the stall A',
      'During the stall B',
    ];
    let calls: ReturnType<typeof timed>[] = [];
    let stalledAt = 0;
    try {
      await lock.query('begin');
      await lock.query('select 1 from websites where id = $1 for update', [site]);
      calls = [a, b].map((c, i) =>
        timed(c.base, token, 'create_page', { websiteId: site, title: titles[i] }),
      );
      await until(async () => {
        const r = await watch.query(
          `select count(*)::int as n from pg_stat_activity where datname = current_database()
              and application_name like 'sg_stall_%' and wait_event_type = 'Lock'`,
        );
        return r.rows[0].n === 2 || null;
      }, 300);
      proxy.stall();
      stalledAt = performance.now();
    } finally {
      await lock.query('rollback').catch(() => {});
      await lock.end();
    }

    // Calls that arrive during the stall: reads and writes on both processes, at its start and later.
    calls.push(
      ...[a, b].map((c, i) => timed(c.base, token, 'create_page', { websiteId: site, title: titles[i + 2] })),
      ...[a, b].map((c) => timed(c.base, token, 'list_pages', { websiteId: site })),
    );
    // A request other than a call (here tools/list) gets a JSON-RPC error with the same words.
    const listed = Promise.all(
      [a, b].map(async (c) => {
        const res = await postMcp(`${c.base}/api/mcp`, token);
        const body = (await res.json()) as { error?: { message: string } };
        return {
          status: res.status,
          message: body.error?.message,
          requestId: res.headers.get('x-request-id'),
        };
      }),
    );
    for (const c of [a, b]) await until(async () => (await readyz(c.base)) === 503 || null, 100);
    // Later in the stall: a read and a write again, then a third process is stopped with a call in it.
    await new Promise((r) => setTimeout(r, 4_000));
    calls.push(
      timed(a.base, token, 'list_pages', { websiteId: site }),
      timed(b.base, token, 'update_business_name', { websiteId: site, name: 'Stalled Bakery' }),
    );
    const inStop = timed(c.base, token, 'list_pages', { websiteId: site });
    await new Promise((r) => setTimeout(r, 200));
    const stopAsked = performance.now();
    c.server.child.kill('SIGTERM');
    await c.server.done;
    const stoppedIn = performance.now() - stopAsked;
    const answers = await Promise.all(calls);
    for (const l of await listed) {
      expect(l.status).toBe(503);
      expect(l.message).toContain('The database did not answer in time, so nothing was changed.');
    }
    // Every call was answered within the bound plus a second, while the traffic was still stopped.
    expect(proxy.mode()).toBe('stall');
    for (const r of answers) {
      expectUnavailable(r);
      expect(r.ms, r.text).toBeLessThan(CALL_MS + 1_000);
    }
    expect((await inStop).status === 0 || (await inStop).code === 'unavailable').toBe(true);
    expect(stoppedIn).toBeLessThan(Number(STOP.SHUTDOWN_DRAIN_MS) + Number(STOP.SHUTDOWN_TIMEOUT_MS) + 1_000);
    for (const c of [a, b]) expect(alive(c)).toBe(true);
    // The stall lasted its 10 s before it ends.
    await new Promise((r) => setTimeout(r, Math.max(0, 10_000 - (performance.now() - stalledAt))));

    proxy.heal();
    await servingAgain([a, b], site, 150);
    for (const c of [a, b]) expect(await readyz(c.base)).toBe(200);
    expect(await pagesTitled(titles)).toBe(0);
    const after = ['After the stall A', 'After the stall B'];
    for (const [i, c] of [a, b].entries()) {
      const r = await callTool(c.base, token, 'create_page', { websiteId: site, title: after[i] });
      expect(r.ok, r.text).toBe(true);
    }
    expect(await pagesTitled(after)).toBe(2);
  },
  180_000,
);
