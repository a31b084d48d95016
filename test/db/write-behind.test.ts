// Held writes (src/db/write-behind.ts) on the file's real database: a write held in a transaction is
// sent before the next statement and before the commit, dropped by a rollback, and one that fails
// fails its transaction with nothing of it written.
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Database, Db } from '../../src/db/client.js';
import { writeBehind } from '../../src/db/write-behind.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
  await database.db.execute(sql`create table if not exists write_behind_probe (tag text not null)`);
});

const insert = (tx: Db, tag: string | null) =>
  tx.execute(sql`insert into write_behind_probe (tag) values (${tag})`);

/** Held tags, each inserted when sent; a null tag fails (the column is not null). */
const probe = writeBehind<{ tags: Array<string | null> }>('probe', async (tx, held) => {
  for (const tag of held.tags) await insert(tx, tag);
});

const count = async (db: Db, tag: string) =>
  Number(
    (
      (await db.execute(sql`select count(*)::int as n from write_behind_probe where tag = ${tag}`)) as {
        rows: { n: number }[];
      }
    ).rows[0]!.n,
  );

it('a held write is sent before the transaction’s next statement, once, and before its commit', async () => {
  const first = uniqueTag();
  const second = uniqueTag();
  await database.db.transaction(async (tx) => {
    expect(probe.hold(tx, 'a', { tags: [first] })).toBe(true);
    expect(probe.held(tx, 'a')).toEqual({ tags: [first] });
    expect(await count(tx, first)).toBe(1); // the count's own statement sent it first
    expect(probe.held(tx, 'a')).toBeUndefined(); // and it is no longer held
    expect(await count(tx, first)).toBe(1);
    probe.hold(tx, 'a', { tags: [second] }); // held at the end: the commit sends it
  });
  expect(await count(database.db, first)).toBe(1);
  expect(await count(database.db, second)).toBe(1);
});

it('a rollback drops what is held: nothing of it is written, then or by a later transaction', async () => {
  const tag = uniqueTag();
  await expect(
    database.db.transaction(async (tx) => {
      probe.hold(tx, 'a', { tags: [tag] });
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  // Every pooled connection runs a transaction of its own: none of them sends the dropped write.
  await Promise.all(
    Array.from({ length: 4 }, () => database.db.transaction((tx) => tx.execute(sql`select 1`))),
  );
  expect(await count(database.db, tag)).toBe(0);
});

it('a held write that fails fails the next statement instead of running it, and the transaction rolls back', async () => {
  const before = uniqueTag();
  const after = uniqueTag();
  let next: unknown = 'not run';
  await expect(
    database.db.transaction(async (tx) => {
      await insert(tx, before);
      probe.hold(tx, 'a', { tags: [null] });
      next = await insert(tx, after).then(
        () => 'ran',
        (err: unknown) => err,
      );
      throw next;
    }),
  ).rejects.toThrow();
  expect(next).toBeInstanceOf(Error); // the held insert's not-null violation, not a later one
  const causes: string[] = [];
  for (let e: unknown = next; e instanceof Error; e = e.cause) causes.push(e.message);
  expect(causes.join(' / ')).toMatch(/null value/i);
  expect(await count(database.db, before)).toBe(0);
  expect(await count(database.db, after)).toBe(0);
});

it('a held write that fails at the commit fails the transaction, with nothing written', async () => {
  const before = uniqueTag();
  await expect(
    database.db.transaction(async (tx) => {
      await insert(tx, before);
      probe.hold(tx, 'a', { tags: [null] });
    }),
  ).rejects.toThrow();
  expect(await count(database.db, before)).toBe(0);
  // The connection is fit for the next transaction.
  const next = uniqueTag();
  await database.db.transaction(async (tx) => {
    await insert(tx, next);
  });
  expect(await count(database.db, next)).toBe(1);
});

it('outside a transaction nothing can be held: the writer is told to send its write itself', () => {
  expect(probe.hold(database.db, 'a', { tags: ['never'] })).toBe(false);
  expect(probe.held(database.db, 'a')).toBeUndefined();
});
