// Fixed statements (docs/performance.md), for the statements every call makes. Two costs are paid once
// instead of on every run:
// - Drizzle builds a query's text anew each time it runs: a measurable share of the service's CPU for
//   the gate's read and a section's (docs/performance.md). A fixed statement is
//   built once, with `sql.placeholder(key)` for each value that changes, and only filled in per run.
// - node-postgres sends every statement unnamed, so PostgreSQL parses and plans it again on each run
//   (measured with pgbench). A fixed statement runs under its name,
//   parsed and planned once per pooled connection, in any later transaction on it (it survives
//   rollbacks). PGlite ignores the name; src/db/pglite-statements.ts prepares every text there.
//
// Each name is written at one place (test/architecture/statement-names.test.ts): node-postgres refuses a
// name one connection already prepared for another text. Only for texts that never vary with the data
// (not an IN list of any length, say): every text stays prepared on every connection for its life.
import { Column, type Query, type SQL, Table, getTableName, is, orderSelectedFields } from 'drizzle-orm';
import { PgDialect, type PgSelectConfig, type SelectedFieldsOrdered } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';

// Drizzle's own select orders a row's columns with this function, both when it writes the column list
// and when it maps a row back. It is exported at runtime; its declarations leave it out. (Were it ever
// to change, test/db/named.test.ts compares these rows with Drizzle's own.)
declare module 'drizzle-orm' {
  export function orderSelectedFields(fields: Record<string, unknown>): SelectedFieldsOrdered;
}

const dialect = new PgDialect();

/** The values of a fixed statement's placeholders, by key. */
type Placeholders = Record<string, unknown>;

/**
 * A raw statement of a fixed text, run as the named statement `name` on the database or transaction
 * given. `build` runs once, at the first run; its values are placeholders.
 */
export function fixedSql<Row>(name: string, build: (db: Db) => SQL) {
  let query: Query | undefined;
  return async (db: Db, values: Placeholders): Promise<{ rows: Row[] }> => {
    query ??= dialect.sqlToQuery(build(db));
    const prepared = db._.session.prepareQuery(query, undefined, name, false);
    return (await prepared.execute(values)) as { rows: Row[] };
  };
}

/** What `fixedSelect` needs of a Drizzle select: its text and its selection. */
type Select = { getSQL(): SQL; readonly _: { readonly result: unknown; readonly config: PgSelectConfig } };

/**
 * A select of a fixed shape, run as the named statement `name` on the database or transaction given; its
 * rows come back as Drizzle's own `execute` gives them. `build` runs once, at the first run, on that
 * database (only to build the text); its values are placeholders.
 */
export function fixedSelect<Q extends Select>(name: string, build: (db: Db) => Q) {
  let built: { query: Query; fields: SelectedFieldsOrdered } | undefined;
  return async (db: Db, values: Placeholders): Promise<Q['_']['result']> => {
    built ??= buildSelect(name, build(db));
    const prepared = db._.session.prepareQuery(built.query, built.fields, name, true);
    return prepared.execute(values);
  };
}

function buildSelect(name: string, select: Select) {
  const { config } = select._;
  const fields = orderSelectedFields(config.fields);
  // Drizzle's own execute turns an outer-joined table's object into null when the row has none of it;
  // the rows here are mapped without that step, so such a selection is refused where it is written.
  const joins = config.joins ?? [];
  if (joins.some((j) => j.joinType === 'right' || j.joinType === 'full')) {
    throw new Error(`${name}: right and full joins are not supported here`);
  }
  const left = new Set(
    joins
      .filter((j) => j.joinType === 'left')
      .map((j) => j.alias ?? (is(j.table, Table) ? getTableName(j.table) : '')),
  );
  for (const { path, field } of fields) {
    if (path.length > 1 && is(field, Column) && left.has(getTableName(field.table))) {
      throw new Error(`${name}: select a left-joined table's columns one by one, not as an object`);
    }
  }
  return { query: dialect.sqlToQuery(select.getSQL()), fields };
}
