// Drizzle hands PGlite the same parsers with every query: timestamps, dates, intervals and their arrays
// (and numeric[]) stay the text PostgreSQL sent, and Drizzle maps them itself. PGlite merges a query's
// parsers into its table for every type it knows, hundreds of array types among them, with an object
// spread on every query, as costly as running `select 1` (docs/performance.md).
// So the instance's own table says the same once, and a query's parsers are dropped when they change
// nothing: each names one of those types and returns the text it is given (src/db/session.ts).
import { type PGlite, type QueryOptions, types } from '@electric-sql/pglite';

const AS_TEXT: readonly number[] = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];
const asText = (value: string) => value;
const PROBE = '2001-02-03 04:05:06';

type Parsers = NonNullable<QueryOptions['parsers']>;

/** True when `parsers` would leave every value as the instance (after `keepDrizzleText`) does. */
export function redundantParsers(parsers: Parsers): boolean {
  for (const key of Object.keys(parsers)) {
    const type = Number(key);
    if (!AS_TEXT.includes(type) || !keepsText(parsers[type]!)) return false;
  }
  return true;
}

/** A parser that returns the probe unchanged; one that throws on it is kept (and runs on real values). */
function keepsText(parse: (value: string) => unknown): boolean {
  try {
    return parse(PROBE) === PROBE;
  } catch {
    return false;
  }
}

/** A query's options without parsers that say no more than the instance's own table. */
export function withoutRedundantParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  return options?.parsers && redundantParsers(options.parsers) ? { ...options, parsers: undefined } : options;
}

/**
 * Makes a started PGlite leave Drizzle's text types as text itself (its parser table, not a method).
 * Call after `PGlite.create`: starting fills the array types' parsers, which would otherwise split
 * `timestamp[]` and the like. src/db/session.ts drops the per-query parsers that then say no more.
 */
export function keepDrizzleText(client: PGlite): void {
  for (const type of AS_TEXT) client.parsers[type] = asText;
}
