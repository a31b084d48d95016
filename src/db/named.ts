// Named statements (issue 17). node-postgres sends every Drizzle statement unnamed, so PostgreSQL
// parses and plans it again on each run: about 0.15 ms of server CPU for the gate's read and 0.07 ms
// for a section's, on the same two cores as the service (pgbench, unnamed against named). A named
// statement is parsed and planned once per pooled connection and then only bound and run, in any
// later transaction on that connection (it survives rollbacks). PGlite ignores the name.
//
// Only for statements of a fixed shape: every distinct text stays prepared on every connection for its
// life, so never for a text that varies with the data (an IN list of any length, say).
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';

const dialect = new PgDialect();

/** The name a statement text is prepared under: the same text always gets the same name. */
function statementName(text: string): string {
  return `sitegate_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
}

/** `db.execute(query)` as a named statement, named by its text (so two shapes never share a name). */
export async function executeNamed<Row>(db: Db, query: SQL): Promise<{ rows: Row[] }> {
  const built = dialect.sqlToQuery(query);
  const prepared = db._.session.prepareQuery(built, undefined, statementName(built.sql), false);
  return (await prepared.execute()) as { rows: Row[] };
}
