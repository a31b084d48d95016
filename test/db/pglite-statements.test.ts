// Prepared statements on the embedded PGlite (src/db/pglite-statements.ts): the same answers
// and errors as PGlite's own query, each text prepared once and reused, transactions still isolated
// from statements outside them, the prepared set bounded, notifications still delivered.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_PREPARED, type PreparedStatements, preparedStatements } from '../../src/db/pglite-statements.js';
import { gate } from '../helpers/gate.js';

let pg: PGlite;
let stats: PreparedStatements;

/** The prepared path, outside and inside PGlite's transactions, as src/db/session.ts uses it. */
const q: PreparedStatements['query'] = (text, params, options) => stats.query(text, params, options);
const tr = <T>(
  body: (tx: { query: PreparedStatements['query']; rollback: () => Promise<void> }) => Promise<T>,
) => pg.transaction((tx) => body({ query: stats.queryIn(tx), rollback: () => tx.rollback() }));

beforeAll(async () => {
  pg = await PGlite.create();
  stats = preparedStatements(pg);
  await pg.exec(
    `create table t (id int primary key, name text not null, doc jsonb, at timestamptz, tags text[])`,
  );
});
afterAll(() => pg?.close());

const preparedCount = async () =>
  Number((await pg.exec(`select count(*)::int as n from pg_prepared_statements`))[0]!.rows[0]!.n);

it('answers as PGlite does: parameters of each type, nulls, array rows and a query’s own parsers', async () => {
  const at = new Date('2026-11-24T10:00:00Z');
  await q('insert into t (id, name, doc, at, tags) values ($1, $2, $3, $4, $5)', [
    1,
    'one',
    { a: [1, 'x'] },
    at,
    ['p', 'q'],
  ]);
  await q('insert into t (id, name, doc, at, tags) values ($1, $2, $3, $4, $5)', [
    2,
    'two',
    null,
    null,
    null,
  ]);
  const rows = await q('select id, name, doc, at, tags from t order by id');
  expect(rows.rows).toEqual([
    { id: 1, name: 'one', doc: { a: [1, 'x'] }, at, tags: ['p', 'q'] },
    { id: 2, name: 'two', doc: null, at: null, tags: null },
  ]);
  expect(rows.fields.map((f) => f.name)).toEqual(['id', 'name', 'doc', 'at', 'tags']);
  const arrays = await q('select id, name from t where id = $1', [2], { rowMode: 'array' });
  expect(arrays.rows).toEqual([[2, 'two']]);
  const parsed = await q('select id from t where id = $1', [1], {
    parsers: { 23: (v: string) => Number(v) * 10 },
  });
  expect(parsed.rows).toEqual([{ id: 10 }]);
  const updated = await q('update t set name = $1 where id > $2', ['n', 0]);
  expect(updated.affectedRows).toBe(2);
});

it('prepares each text once and reuses it', async () => {
  const text = 'select name from t where id = $1';
  await q(text, [1]);
  const before = await preparedCount();
  for (let i = 0; i < 50; i++) expect((await q(text, [1 + (i % 2)])).rows).toHaveLength(1);
  expect(await preparedCount()).toBe(before);
  const [row] = (
    await pg.exec(`select statement from pg_prepared_statements where statement = '${text}'`)
  )[0]!.rows;
  expect(row).toBeDefined();
});

it('keeps PGlite’s errors, and the instance answers after them', async () => {
  const duplicate = await q('insert into t (id, name) values ($1, $2)', [1, 'again']).catch((e) => e);
  expect(duplicate).toMatchObject({ code: '23505', query: 'insert into t (id, name) values ($1, $2)' });
  const syntax = await q('selec nothing').catch((e) => e);
  expect(syntax).toMatchObject({ code: '42601' });
  expect((await q('select count(*)::int as n from t')).rows).toEqual([{ n: 2 }]);
  expect(
    (
      await pg.exec(`select count(*)::int as n from pg_prepared_statements where statement like 'selec %'`)
    )[0]!.rows,
  ).toEqual([{ n: 0 }]);
});

it('transactions: rolled back on error, statements made inside them live on, outside statements wait', async () => {
  const failed = await tr(async (tx) => {
    await tx.query('insert into t (id, name) values ($1, $2)', [3, 'three']);
    await tx.query('insert into t (id, name) values ($1, $2)', [1, 'clash']);
  }).catch((e) => e);
  expect(failed).toMatchObject({ code: '23505' });
  expect((await q('select count(*)::int as n from t where id = $1', [3])).rows).toEqual([{ n: 0 }]);
  // A text first prepared inside a rolled-back transaction still runs afterwards.
  await tr(async (tx) => {
    await tx.query('select name from t where name = $1', ['n']);
    await tx.rollback();
  }).catch(() => undefined);
  expect((await q('select name from t where name = $1', ['n'])).rows).toHaveLength(2);

  const held = gate();
  const wrote = gate();
  const tx = tr(async (t) => {
    await t.query('insert into t (id, name) values ($1, $2)', [4, 'four']);
    wrote.release();
    await held.done;
  });
  await wrote.done;
  let seen: unknown;
  const outside = q('select count(*)::int as n from t where id = $1', [4]).then((r) => {
    seen = r.rows[0]!.n;
  });
  await new Promise((r) => setTimeout(r, 50));
  expect(seen).toBeUndefined(); // it waits for the transaction, never reads its uncommitted row
  held.release();
  await tx;
  await outside;
  expect(seen).toBe(1);
});

it('keeps at most MAX_PREPARED texts prepared; an evicted text runs again', async () => {
  for (let i = 0; i < MAX_PREPARED + 20; i++) await q(`select $1::int + ${i} as v`, [1]);
  expect(stats.prepared()).toBe(MAX_PREPARED);
  expect(await preparedCount()).toBeLessThanOrEqual(MAX_PREPARED + 1);
  expect((await q('select $1::int + 0 as v', [5])).rows).toEqual([{ v: 5 }]);
});

it('delivers notifications sent by a statement', async () => {
  const heard: string[] = [];
  await pg.listen('sitegate_test', (payload) => heard.push(payload));
  await q(`select pg_notify('sitegate_test', $1)`, ['hello']);
  await new Promise((r) => setTimeout(r, 10));
  expect(heard).toEqual(['hello']);
});
