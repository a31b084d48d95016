// Where a value is kept: every text-like column of every table of the schema, searched for it (case
// folded). For tests that must show a value is nowhere (an erased person's address).
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import { rowsOf } from '../../src/db/rows.js';

/** `table.column: rows` for each column holding `needle` in some row; empty when it is nowhere. */
export async function columnsHolding(db: Db, needle: string): Promise<string[]> {
  const cols = rowsOf<{ table_name: string; column_name: string }>(
    await db.execute(sql`select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'jsonb', 'json', 'character varying', 'ARRAY')`),
  );
  const hits: string[] = [];
  for (const c of cols) {
    const q = sql`select count(*)::int as n from ${sql.identifier(c.table_name)}
      where position(${needle.toLowerCase()} in lower(${sql.identifier(c.column_name)}::text)) > 0`;
    const n = rowsOf<{ n: number }>(await db.execute(q))[0]!.n;
    if (n > 0) hits.push(`${c.table_name}.${c.column_name}: ${n}`);
  }
  return hits;
}
