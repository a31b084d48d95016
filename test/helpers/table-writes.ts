// The table writes a source text makes (Drizzle calls and SQL text), by the table's TypeScript name:
// what the architecture tests on the write path read (test/architecture/one-path.test.ts,
// test/architecture/write-path.test.ts).
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../src/db/schema.js';

// Every table of the schema: its name in TypeScript and in SQL.
export const TABLES = new Map(
  Object.entries(schema)
    .filter(([, value]) => is(value, PgTable))
    .map(([name, table]) => [name, getTableName(table as PgTable)]),
);
const BY_SQL_NAME = new Map([...TABLES].map(([ts, sqlName]) => [sqlName, ts]));

export type Write = { file: string; op: 'insert' | 'update' | 'delete'; table: string };

export const stripComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The table writes a source text makes, by the table's TypeScript name. */
export function writesIn(file: string, source: string): Write[] {
  const text = stripComments(source);
  const out: Write[] = [];
  // Drizzle: tx.insert(pages), db.update(t.websites), .delete(sections) …
  for (const m of text.matchAll(/\.(insert|update|delete)\(\s*(?:\w+\.)?(\w+)\s*\)/g)) {
    if (TABLES.has(m[2]!)) out.push({ file, op: m[1] as Write['op'], table: m[2]! });
  }
  // SQL text: insert into ${table} / update "websites" / delete from sections …
  for (const m of text.matchAll(
    /\b(insert\s+into|update|delete\s+from)\s+(?:\$\{\s*(?:\w+\.)?(\w+)\s*\}|"?(\w+)"?)/gi,
  )) {
    const table = m[2] && TABLES.has(m[2]) ? m[2] : m[3] ? BY_SQL_NAME.get(m[3]) : undefined;
    const op = m[1]!.toLowerCase().split(/\s+/)[0] as Write['op'];
    if (table) out.push({ file, op, table });
  }
  return out;
}
