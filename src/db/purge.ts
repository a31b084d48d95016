// The retention sweeps' one way to delete old rows: in batches of a bounded size, each its own
// statement (no long lock an ordinary call waits on, no huge result), counted in the database (the
// deleted rows never come to the process), up to a bounded number of batches a run; what one run
// leaves, the next takes. Rows are picked by their physical address, so any table works, whatever its key.
import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';
import { rowsOf } from './rows.js';

export const PURGE_BATCH = 5_000;
export const PURGE_MAX_BATCHES = 200;

/** Deletes the rows of `table` that `where` selects, in batches; returns how many went. */
export async function deleteInBatches(
  db: Db,
  table: PgTable,
  where: SQL,
  batch = PURGE_BATCH,
  maxBatches = PURGE_MAX_BATCHES,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const result = await db.execute(sql`with gone as (
      delete from ${table} where ctid = any(array(select ctid from ${table} where ${where} limit ${batch}))
      returning 1) select count(*)::int as n from gone`);
    const n = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
    total += n;
    if (n < batch) break;
  }
  return total;
}
