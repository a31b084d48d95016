// PostgreSQL drops connections two real `sitegate serve` processes hold (pg_terminate_backend, as a
// restart, a failover, idle_in_transaction_session_timeout or a pooler would): idle ones, ones inside
// a transaction that has written, and ones waiting on a row lock. Before, a dropped connection that a
// request held emitted 'error' on a pg client nobody listened to, and the process exited. Now both
// processes live on, the calls that held a dropped connection are answered `unavailable` (nothing was
// changed, the same call may be made again), the pools replace the connections, and the next calls
// succeed.
// PostgreSQL only, like the other PostgreSQL fault tests (CI's PostgreSQL pass runs it).
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../helpers/process.js';
import { type Child, besides, backend, newDataDir, start, stop } from './harness.js';
import { type Answer, alive, callTool, expectUnavailable, readyz, servingAgain } from './pg-kit.js';

const url = process.env.DATABASE_URL;
let store: Awaited<ReturnType<typeof backend>>;
let a: Child;
let b: Child;
let watch: pg.Client;

/** Each process names its connections, so the test can tell whose backend is whose. */
const named = (databaseUrl: string, name: string) => {
  const u = new URL(databaseUrl);
  u.searchParams.set('application_name', name);
  return u.toString();
};

beforeAll(async () => {
  if (!url) return;
  store = await backend();
  a = await start(newDataDir('pg-drop-a'), { DATABASE_URL: named(store.databaseUrl!, 'sg_drop_a') });
  b = besides(
    await start(newDataDir('pg-drop-b'), { DATABASE_URL: named(store.databaseUrl!, 'sg_drop_b') }),
    a,
  );
  watch = new pg.Client({ connectionString: store.databaseUrl });
  await watch.connect();
}, 240_000);
afterAll(async () => {
  await watch?.end();
  for (const c of [a, b]) if (c) await stop(c);
  await store?.drop();
});

type Backend = { pid: number; app: string; state: string; wait: string | null; inTx: boolean };

async function backends(): Promise<Backend[]> {
  const r = await watch.query(
    `select pid, application_name as app, state, wait_event_type as wait, xact_start is not null as "inTx"
       from pg_stat_activity where datname = current_database() and application_name like 'sg_drop_%'`,
  );
  return r.rows as Backend[];
}

async function terminate(pids: number[]): Promise<void> {
  await watch.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
  await until(async () => {
    const left = new Set((await backends()).map((x) => x.pid));
    return pids.every((p) => !left.has(p)) || null;
  }, 100);
}

const pagesTitled = async (titles: string[]) =>
  Number(
    (await watch.query('select count(*)::int as n from pages where title = any($1)', [titles])).rows[0].n,
  );

it.runIf(url)(
  'PostgreSQL: connections dropped while idle, inside a transaction and waiting on a row lock; both processes live on',
  async () => {
    const site = a.demo.websites.main;
    const token = a.demo.tokens.all;
    // Both pools hold connections.
    for (const c of [a, b])
      expect((await callTool(c.base, token, 'list_pages', { websiteId: site })).ok).toBe(true);

    // 1. Idle connections: the pools notice, and the next calls are served on new ones.
    const idle = (await backends()).filter((x) => x.state === 'idle');
    expect(new Set(idle.map((x) => x.app))).toEqual(new Set(['sg_drop_a', 'sg_drop_b']));
    await terminate(idle.map((x) => x.pid));
    for (const c of [a, b]) {
      expect(alive(c)).toBe(true);
      expect((await callTool(c.base, token, 'list_pages', { websiteId: site })).ok).toBe(true);
    }

    // 2. Connections held by requests. The test holds the website's row: each process's create_page
    // inserts its page (its transaction has written) and then waits for that row, or waits for the
    // workspace's row the first one holds (a row lock, before writing).
    const lock = new pg.Client({ connectionString: store.databaseUrl });
    await lock.connect();
    const titles = ['Dropped mid-write A', 'Dropped mid-write B'];
    let held: Backend[] = [];
    let answers: Answer[] = [];
    try {
      await lock.query('begin');
      await lock.query('select 1 from websites where id = $1 for update', [site]);
      const calls = [a, b].map((c, i) =>
        callTool(c.base, token, 'create_page', { websiteId: site, title: titles[i] }),
      );
      held = await until(async () => {
        const waiting = (await backends()).filter((x) => x.wait === 'Lock' && x.inTx);
        return waiting.length === 2 ? waiting : null;
      }, 300);
      expect(new Set(held.map((x) => x.app))).toEqual(new Set(['sg_drop_a', 'sg_drop_b']));
      // Every connection of both processes goes: the two held ones and whatever is idle beside them.
      await terminate((await backends()).map((x) => x.pid));
      answers = await Promise.all(calls);
    } finally {
      await lock.query('rollback').catch(() => {});
      await lock.end();
    }
    for (const r of answers) expectUnavailable(r);
    expect(await pagesTitled(titles)).toBe(0);
    for (const c of [a, b]) {
      expect(alive(c)).toBe(true);
      expect(await readyz(c.base)).toBe(200);
    }

    // 3. The pools opened new connections: reads and writes succeed on both processes.
    await servingAgain([a, b], site);
    const after = ['After the drop A', 'After the drop B'];
    for (const [i, c] of [a, b].entries()) {
      const r = await callTool(c.base, token, 'create_page', { websiteId: site, title: after[i] });
      expect(r.ok, r.text).toBe(true);
    }
    expect(await pagesTitled(after)).toBe(2);
  },
  180_000,
);
