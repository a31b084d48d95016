// The PostgreSQL pool's bounds and fault handling (src/db/pg-bounds.ts), in-process, against the real
// server, through the TCP proxy where the network must fail: a statement that gets no answer ends at
// the client's bound and its connection is never handed out again (nor kept out of the pool: a
// transaction whose BEGIN fails is not released by drizzle itself); the server ends a statement over
// its bound; a connection dropped while a transaction holds it fails that transaction without an
// unhandled 'error' (which would end the process, and fails this run); the readiness probe holds at
// most one connection while the database stalls. PostgreSQL only.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DB_BOUNDS } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { readinessProbe } from '../../src/ops/readiness.js';
import { until } from '../helpers/process.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';

const url = process.env.DATABASE_URL;
let proxy: TcpProxy;
let admin: pg.Client;
const opened: Database[] = [];

beforeAll(async () => {
  if (!url) return;
  const u = new URL(url);
  proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(async () => {
  proxy?.heal();
  for (const d of opened) await d.close().catch(() => {});
  await admin?.end();
  await proxy?.close();
});

/** The test database, through the proxy or not, with the given statement bound and a name. */
async function open(opts: { viaProxy: boolean; statementMs: number; name: string; poolSize?: number }) {
  const u = new URL(url!);
  if (opts.viaProxy) u.host = proxy.address;
  u.searchParams.set('application_name', opts.name);
  const database = await openDatabase({
    databaseUrl: u.toString(),
    migrate: false,
    poolSize: opts.poolSize ?? 1,
    bounds: {
      ...DB_BOUNDS,
      statementTimeoutMs: opts.statementMs,
      connectTimeoutMs: 1_000,
      idleInTransactionTimeoutMs: 60_000,
    },
  });
  opened.push(database);
  return database;
}

const pid = async (d: Database) =>
  Number(
    ((await d.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: [{ pid: number }] })
      .rows[0].pid,
  );

const driverCode = (err: unknown) =>
  ((err as { cause?: { code?: string } }).cause ?? (err as { code?: string })).code;

it.runIf(url)(
  'a statement that gets no answer ends at the bound, and its connection is not used again',
  async () => {
    const d = await open({ viaProxy: true, statementMs: 300, name: 'pgb_stall' });
    const first = await pid(d);
    // Inside a transaction (a connection checked out of the pool, as drizzle's transactions do).
    proxy.stall();
    const inTx = await d.db
      .transaction((tx) => tx.execute(sql`select 1`))
      .then(
        () => 'answered',
        () => 'failed',
      );
    proxy.heal();
    expect(inTx).toBe('failed');
    const second = await pid(d);
    expect(second).not.toBe(first);
    // A lone statement (the pool's own query path).
    proxy.stall();
    const alone = await d.db.execute(sql`select 1`).then(
      () => 'answered',
      () => 'failed',
    );
    proxy.heal();
    expect(alone).toBe('failed');
    expect(await pid(d)).not.toBe(second);
    expect(d.poolUse!().total).toBe(1);
  },
);

it.runIf(url)(
  'the server bounds every statement and idle transaction, and ends a statement past its bound',
  async () => {
    const d = await open({ viaProxy: false, statementMs: 300, name: 'pgb_slow' });
    const shown = async (setting: string) =>
      ((await d.db.execute(sql.raw(`show ${setting}`))) as unknown as { rows: Array<Record<string, string>> })
        .rows[0]![setting];
    expect(await shown('statement_timeout')).toBe('300ms');
    expect(await shown('idle_in_transaction_session_timeout')).toBe('1min');
    const err = await d.db.execute(sql`select pg_sleep(5)`).catch((e: unknown) => e);
    expect(driverCode(err)).toBe('57014'); // query_canceled: statement timeout
    expect(await pid(d)).toBeGreaterThan(0);
  },
);

it.runIf(url)(
  'a connection dropped while its transaction waits on a lock fails that transaction only',
  async () => {
    await admin.query('create table if not exists pgb_rows (id int primary key, v int not null)');
    await admin.query('insert into pgb_rows values (1, 0) on conflict (id) do update set v = 0');
    const d = await open({ viaProxy: false, statementMs: 10_000, name: 'pgb_drop', poolSize: 2 });
    const lock = new pg.Client({ connectionString: url });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query('select 1 from pgb_rows where id = 1 for update');
      const write = d.db
        .transaction(async (tx) => {
          await tx.execute(sql`update pgb_rows set v = v + 1 where id = 1`);
        })
        .then(
          () => 'committed',
          () => 'failed',
        );
      const waiting = await until(async () => {
        const r = await admin.query(
          `select pid from pg_stat_activity where application_name = 'pgb_drop' and wait_event_type = 'Lock'`,
        );
        return r.rows[0]?.pid as number | undefined;
      }, 100);
      await admin.query('select pg_terminate_backend($1)', [waiting]);
      expect(await write).toBe('failed');
    } finally {
      await lock.query('rollback');
      await lock.end();
    }
    expect((await admin.query('select v from pgb_rows where id = 1')).rows[0].v).toBe(0);
    await d.db.transaction((tx) => tx.execute(sql`update pgb_rows set v = v + 1 where id = 1`));
    expect((await admin.query('select v from pgb_rows where id = 1')).rows[0].v).toBe(1);
  },
);

it.runIf(url)('the readiness probe holds at most one connection while the database stalls', async () => {
  const d = await open({ viaProxy: true, statementMs: 5_000, name: 'pgb_ready', poolSize: 10 });
  const ready = readinessProbe({ database: d, draining: () => false, timeoutMs: 200 });
  expect((await ready()).database).toBe('ok');
  proxy.stall();
  try {
    for (let i = 0; i < 5; i++) expect((await ready()).database).toBe('unreachable');
    expect(d.poolUse!().total).toBe(1);
  } finally {
    proxy.heal();
  }
  await until(async () => (await ready()).database === 'ok' || null, 100);
});
