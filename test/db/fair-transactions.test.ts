// PGlite runs one transaction at a time: queued transactions must let the event loop take a
// turn between them, so answers are written and other requests read while writes are queued, and they
// still run one after another, in arrival order, each with its own outcome. PGlite only: PostgreSQL's
// transactions run side by side on the pool.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';

describe.skipIf(Boolean(process.env.DATABASE_URL))('transactions on PGlite', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ memory: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('gives the event loop a turn between two queued transactions', async () => {
    const db = database.db;
    const order: string[] = [];
    const first = db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      order.push('first');
      // Work that arrived while the first transaction ran (an HTTP answer to write, a request to read).
      setImmediate(() => order.push('event loop'));
    });
    const second = db.transaction(async (tx) => {
      order.push('second');
      await tx.execute(sql`select 1`);
    });
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'event loop', 'second']);
  });

  it('runs them one at a time in arrival order; a failed one rolls back and the next still runs', async () => {
    const db = database.db;
    await db.execute(sql`create table fair_probe (n int not null)`);
    const seen: number[] = [];
    const runs = [1, 2, 3, 4].map((n) =>
      db.transaction(async (tx) => {
        const [row] = (
          (await tx.execute(sql`select count(*)::int as c from fair_probe`)) as unknown as {
            rows: Array<{ c: number }>;
          }
        ).rows;
        seen.push(row!.c);
        await tx.execute(sql`insert into fair_probe values (${n})`);
        if (n === 2) throw new Error('refused');
      }),
    );
    const outcomes = await Promise.allSettled(runs);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    // Each saw the committed rows of those before it; the second's insert was rolled back.
    expect(seen).toEqual([0, 1, 1, 2]);
    const rows = (await db.execute(sql`select n from fair_probe order by n`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(rows.rows.map((r) => r.n)).toEqual([1, 3, 4]);
  });
});
