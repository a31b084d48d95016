// PostgreSQL's traffic stalls (a partition, a frozen VM: no reset, nothing answers) under two real
// `sitegate serve` processes, through the TCP proxy (test/helpers/tcp-proxy.ts). Before, every MCP
// call hung in both processes and still hung after the network came back, and /readyz said 200.
// Now: a write caught mid-transaction, and the calls that come during the stall, end within the
// statement bound with the ordinary failure and their request id, changing nothing; /readyz says 503
// while it lasts; once the traffic flows again both processes serve within seconds, unrestarted.
// PostgreSQL only, like the other PostgreSQL fault tests (CI's PostgreSQL pass runs it).
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../helpers/process.js';
import { postMcp } from '../helpers/server.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';
import { type Child, besides, backend, newDataDir, start, stop } from './harness.js';
import { alive, callTool, expectFailed, readyz, servingAgain } from './pg-kit.js';

const url = process.env.DATABASE_URL;
let store: Awaited<ReturnType<typeof backend>>;
let proxy: TcpProxy;
let a: Child;
let b: Child;
let watch: pg.Client;

/** The statement bound of both processes: short, so the test is short; the client waits 1 s more. */
const BOUNDS = { DB_STATEMENT_TIMEOUT_MS: '2000', DB_CONNECT_TIMEOUT_MS: '2000' };

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
  watch = new pg.Client({ connectionString: store.databaseUrl });
  await watch.connect();
}, 240_000);
afterAll(async () => {
  proxy?.heal();
  await watch?.end();
  for (const c of [a, b]) if (c) await stop(c);
  await proxy?.close();
  await store?.drop();
});

const pagesTitled = async (titles: string[]) =>
  Number(
    (await watch.query('select count(*)::int as n from pages where title = any($1)', [titles])).rows[0].n,
  );

it.runIf(url)(
  'PostgreSQL stalls: calls fail within the bound and change nothing, /readyz is 503, both processes serve again after',
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
    let calls: ReturnType<typeof callTool>[] = [];
    try {
      await lock.query('begin');
      await lock.query('select 1 from websites where id = $1 for update', [site]);
      calls = [a, b].map((c, i) =>
        callTool(c.base, token, 'create_page', { websiteId: site, title: titles[i] }),
      );
      await until(async () => {
        const r = await watch.query(
          `select count(*)::int as n from pg_stat_activity where datname = current_database()
              and application_name like 'sg_stall_%' and wait_event_type = 'Lock'`,
        );
        return r.rows[0].n === 2 || null;
      }, 300);
      proxy.stall();
    } finally {
      await lock.query('rollback').catch(() => {});
      await lock.end();
    }

    // Calls that arrive during the stall: reads and writes on both processes.
    calls.push(
      ...[a, b].map((c, i) =>
        callTool(c.base, token, 'create_page', { websiteId: site, title: titles[i + 2] }),
      ),
      ...[a, b].map((c) => callTool(c.base, token, 'list_pages', { websiteId: site })),
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
    const answers = await Promise.all(calls);
    for (const l of await listed) {
      expect(l.status).toBe(503);
      expect(l.message).toContain(
        `The operation failed and nothing was changed. Request id: ${l.requestId}.`,
      );
    }
    // Every call ended while the traffic was still stopped.
    expect(proxy.mode()).toBe('stall');
    for (const r of answers) expectFailed(r);
    for (const c of [a, b]) expect(alive(c)).toBe(true);

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
