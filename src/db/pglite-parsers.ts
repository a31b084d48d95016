// Drizzle hands PGlite the same parsers with every query: timestamps, dates, intervals and their arrays
// (and numeric[]) stay the text PostgreSQL sent, and Drizzle maps them itself. PGlite merges a query's
// parsers into its table for every type it knows, hundreds of array types among them, with an object
// spread on every query, as costly as running `select 1` (docs/performance.md).
// So the instance's own table says the same once, and a query's parsers are dropped when they change
// nothing: each names one of those types and returns the text it is given.
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
type Query = (query: string, params?: unknown[], options?: QueryOptions) => Promise<unknown>;

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

function dropRedundant(target: { query: Query }): void {
  const query = target.query.bind(target);
  target.query = (text, params, options) =>
    query(
      text,
      params,
      options?.parsers && redundantParsers(options.parsers) ? { ...options, parsers: undefined } : options,
    );
}

/**
 * Makes a started PGlite leave Drizzle's text types as text itself, and skip per-query parsers that say
 * no more (on the instance and inside its transactions). Call after `PGlite.create`: starting fills
 * the array types' parsers, which would otherwise split `timestamp[]` and the like.
 */
export function keepDrizzleText(client: PGlite): void {
  for (const type of AS_TEXT) client.parsers[type] = asText;
  dropRedundant(client as unknown as { query: Query });
  const transaction = client.transaction.bind(client);
  client.transaction = ((run: (tx: unknown) => unknown) =>
    transaction((tx) => {
      dropRedundant(tx as unknown as { query: Query });
      return run(tx) as Promise<unknown>;
    })) as PGlite['transaction'];
}
