// The one seam between Drizzle and the driver (src/db/session.ts), on the file's own database: the hooks
// every statement passes, in their declared order. Each order is seen in what it makes happen:
// - PostgreSQL: count, then deadline, then connection, then pg. A statement past the call's deadline is
//   counted and never sent; one that outlives the deadline is given up on the client side and its
//   connection closed; a ROLLBACK on a connection already gone answers nothing and the error that ended
//   the transaction is the one seen; a COMMIT lost on the wire is an outcome nobody knows.
// - PGlite: count, then parsers, then the prepared runner. BEGIN and COMMIT count too; Drizzle's
//   redundant parsers never reach the runner; queued transactions each wait a turn of the event loop.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeadlineExceeded, withDeadline } from '../../src/db/deadline.js';
import { isOutcomeUnknown, isUnavailable } from '../../src/db/failures.js';
import { STATEMENT_HOOKS, SessionClient } from '../../src/db/session.js';
import type { Database } from '../../src/db/client.js';
import { roundTrips } from '../../src/kernel/round-trips.js';
import { testDatabase } from '../helpers/db.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

const onPostgres = Boolean(process.env.DATABASE_URL);
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
  await database.db.execute(sql`create table if not exists session_probe (tag text not null)`);
});
afterAll(() => {
  roundTrips.enabled = process.env.SITEGATE_COUNT_ROUND_TRIPS === '1';
});

/** The probe rows a test wrote (each test writes its own tags). */
const tags = async (...of: string[]) =>
  (
    (await database.db.execute(sql`select tag from session_probe order by tag`)) as {
      rows: { tag: string }[];
    }
  ).rows
    .map((r) => r.tag)
    .filter((t) => of.includes(t));

it('declares each backend’s hooks, outermost first', () => {
  expect(STATEMENT_HOOKS).toEqual({
    postgres: ['count', 'deadline', 'connection'],
    pglite: ['count', 'parsers'],
  });
});

describe.runIf(onPostgres)('PostgreSQL', () => {
  it('count comes before deadline: a statement past the deadline is counted, and never sent', async () => {
    roundTrips.enabled = true;
    const before = roundTrips.db;
    const err = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into session_probe (tag) values ('before the deadline')`);
        // Drizzle's query is lazy: it runs where it is awaited, inside the deadline here.
        await withDeadline(
          -1,
          async () => await tx.execute(sql`insert into session_probe (tag) values ('past it')`),
        );
      })
      .catch((e) => e);
    roundTrips.enabled = false;
    expect(err.cause).toBeInstanceOf(DeadlineExceeded); // Drizzle wraps the driver's error
    expect(isUnavailable(err)).toBe(true);
    // BEGIN, the first insert, the refused one, ROLLBACK.
    expect(roundTrips.db - before).toBe(4);
    expect(await tags('before the deadline', 'past it')).toEqual([]);
  });

  it('deadline before connection: a statement that outlives the deadline is given up, its connection closed', async () => {
    const started = performance.now();
    const err = await withDeadline(300, () =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into session_probe (tag) values ('slow')`);
        await tx.execute(sql`select pg_sleep(3)`);
      }),
    ).catch((e) => e);
    const took = performance.now() - started;
    expect(isUnavailable(err)).toBe(true);
    expect(took).toBeLessThan(2_500); // the statement was not waited out (3 s): the deadline ended it
    // Nothing was committed, and the pool answers after it.
    expect(await tags('slow')).toEqual([]);
  });

  it('connection hook: a COMMIT whose answer never comes is an outcome nobody knows', async () => {
    const u = new URL(process.env.DATABASE_URL!);
    const proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
    u.host = proxy.address;
    const raw = new pg.Client({ connectionString: u.toString() });
    await raw.connect();
    const client = new SessionClient(Object.assign(raw, { release: () => {} }) as unknown as pg.PoolClient);
    await client.query({ text: 'begin' });
    await client.query({ text: "insert into session_probe (tag) values ('lost commit')" });
    // The network stalls with the COMMIT on its way: the client-side bound ends the wait.
    proxy.stall();
    const err = await client.query({ text: 'commit', query_timeout: 300 }).catch((e) => e);
    proxy.heal();
    await raw.end().catch(() => {});
    await proxy.close();
    expect(err).toBeInstanceOf(Error);
    expect(isOutcomeUnknown(err)).toBe(true);
    expect(isUnavailable(err)).toBe(false);
  });

  it('connection hook: a ROLLBACK on a connection already gone answers nothing', async () => {
    const raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await raw.connect();
    const client = new SessionClient(Object.assign(raw, { release: () => {} }) as unknown as pg.PoolClient);
    await client.query({ text: 'begin' });
    await raw.end();
    expect(await client.query({ text: 'rollback' })).toMatchObject({ rows: [] });
  });
});

describe.runIf(!onPostgres)('PGlite', () => {
  it('count, then parsers, then the prepared runner: BEGIN and COMMIT count, redundant parsers never arrive', async () => {
    roundTrips.enabled = true;
    const before = roundTrips.db;
    const at = await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into session_probe (tag) values ('pglite')`);
      return tx.execute(sql`select now()::timestamptz as at`);
    });
    roundTrips.enabled = false;
    expect(roundTrips.db - before).toBe(4); // BEGIN, insert, select, COMMIT
    // Drizzle asked for timestamps as text: the instance's own table says so, and the value is text.
    expect(typeof (at as { rows: { at: unknown }[] }).rows[0]!.at).toBe('string');
    expect(await tags('pglite')).toEqual(['pglite']);
  });
});
