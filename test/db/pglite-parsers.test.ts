// PGlite keeps Drizzle's text types as text on the instance, so Drizzle's per-query parsers can be
// skipped (PGlite used to copy its whole parser table for every statement that carried them).
// What a query returns must not change: the same text for timestamps, dates, intervals and their
// arrays, Dates where Drizzle maps a column, and a query's own parsers still applied when they differ.
import { types } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/db/client.js';
import { redundantParsers } from '../../src/db/pglite-parsers.js';
import { companies } from '../../src/db/schema.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';

const PROBE_SQL = `select '2020-01-02 03:04:05+00'::timestamptz as a, '2020-01-02 03:04:05'::timestamp as b,
  '2020-01-02'::date as c, '1 day 02:00:00'::interval as d, array[1.5, 2]::numeric[] as e,
  array['2020-01-02 03:04:05+00'::timestamptz] as f, array['2020-01-02'::date] as g,
  array['2020-01-02 03:04:05'::timestamp] as h, array['1 day'::interval] as i`;
const probe = sql.raw(PROBE_SQL);
// PostgreSQL's own text for each value (the session's time zone is UTC).
const asSent = {
  a: '2020-01-02 03:04:05+00',
  b: '2020-01-02 03:04:05',
  c: '2020-01-02',
  d: '1 day 02:00:00',
  e: '{1.5,2}',
  f: '{"2020-01-02 03:04:05+00"}',
  g: '{2020-01-02}',
  h: '{"2020-01-02 03:04:05"}',
  i: '{"1 day"}',
};

describe.skipIf(Boolean(process.env.DATABASE_URL))('PGlite and Drizzle text types', () => {
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase();
  });

  it('returns timestamps, dates, intervals and their arrays as the text PostgreSQL sent', async () => {
    const firstRow = async (db: Db) => ((await db.execute(probe)) as unknown as { rows: unknown[] }).rows[0];
    expect(await firstRow(database.db)).toEqual(asSent);
    expect(await database.db.transaction((tx) => firstRow(tx))).toEqual(asSent);
    // Without Drizzle too: the instance's own table says the same.
    const raw = await database.pglite!.query<Record<string, unknown>>(PROBE_SQL);
    expect(raw.rows[0]).toEqual(asSent);
  });

  it('still maps a timestamp column to a Date where Drizzle declares one', async () => {
    const id = `co_${uniqueTag()}`;
    await database.db.insert(companies).values({ id, name: 'Parsers' });
    const [row] = await database.db
      .select({ createdAt: companies.createdAt })
      .from(companies)
      .where(eq(companies.id, id));
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(row!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('applies a query’s own parsers when they change a value, on the instance and in a transaction', async () => {
    const pg = database.pglite!;
    const tenfold = { parsers: { [types.INT4]: (v: string) => Number(v) * 10 } };
    const alone = await pg.query<{ n: number }>('select 4::int4 as n', [], tenfold);
    expect(alone.rows[0]!.n).toBe(40);
    const inTx = await pg.transaction((tx) => tx.query<{ n: number }>('select 5::int4 as n', [], tenfold));
    expect(inTx.rows[0]!.n).toBe(50);
    const dates = { parsers: { [types.TIMESTAMPTZ]: (v: string) => new Date(v) } };
    const parsed = await pg.query<{ a: unknown }>(
      "select '2020-01-02 03:04:05+00'::timestamptz as a",
      [],
      dates,
    );
    expect(parsed.rows[0]!.a).toEqual(new Date('2020-01-02T03:04:05Z'));
  });

  it('counts as redundant only parsers of those types that return their text', async () => {
    const same = (v: string) => v;
    expect(redundantParsers({ [types.TIMESTAMPTZ]: same, 1115: same, [types.DATE]: same })).toBe(true);
    expect(redundantParsers({ [types.TIMESTAMPTZ]: (v: string) => new Date(v) })).toBe(false);
    expect(redundantParsers({ [types.INT4]: same })).toBe(false);
    // One that throws on the probe is not judged by it: it is kept, and the query does not fail here.
    const strict = (v: string) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new Error(`not a date: ${v}`);
      return v;
    };
    expect(redundantParsers({ [types.DATE]: strict })).toBe(false);
    const dated = await database.pglite!.query<{ c: string }>("select '2020-01-02'::date as c", [], {
      parsers: { [types.DATE]: strict },
    });
    expect(dated.rows[0]!.c).toBe('2020-01-02');
  });
});
