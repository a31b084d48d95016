// The one seam between Drizzle and the database driver. Drizzle is handed an object of ours, a pool
// for node-postgres (`SessionPool`) or a client for PGlite (`SessionPglite`), and every statement Sitegate
// sends passes through the hooks below, in the order `STATEMENT_HOOKS` lists them (outermost first;
// test/db/session.test.ts checks the order). Nothing else in Sitegate replaces a method of the driver.
//
// PostgreSQL (node-postgres):
//   count     round trips for the benchmark (src/kernel/round-trips.ts; off unless asked for)
//   deadline  past the call's deadline no statement is sent; a statement's client-side bound is what is
//             left of it (src/db/deadline.ts)
//   connection  a statement that timed out on the client side closes its connection (everything queued
//             behind it would wait too); a COMMIT that failed on the wire may have happened
//             (src/db/failures.ts); a ROLLBACK on a connection already gone is a no-op (the server
//             rolls back a dropped connection itself), so the error that ended the transaction is the one
//             the caller sees
// and then pg's own `client.query`.
// A pooled connection is checked out within the call's deadline, is given back at once, removed, when
// its connection closes while checked out, and is never handed out again broken, closed or inside a
// transaction (src/db/pg-bounds.ts).
//
// PGlite:
//   count     as above; BEGIN and COMMIT, which PGlite sends itself, count too
//   parsers   Drizzle's per-query parsers are dropped when they say no more than the instance's own
//             table (src/db/pglite-parsers.ts)
// and then, in place of PGlite's own `query`, the statement runs prepared (src/db/pglite-statements.ts).
// PGlite runs one transaction at a time: here each waits for the one before it and then for one turn of
// the event loop, in arrival order, so queued writes never starve the event loop (docs/performance.md).
import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';
import type pg from 'pg';
import { roundTrips } from '../kernel/round-trips.js';
import { DeadlineExceeded, beforeDeadline, deadlineLeft } from './deadline.js';
import { markOutcomeUnknown } from './failures.js';
import { gone, isClientTimeout, unfit, watchClient } from './pg-bounds.js';
import { withoutRedundantParsers } from './pglite-parsers.js';
import {
  type PreparedStatements,
  type Query as PgliteQuery,
  preparedStatements,
} from './pglite-statements.js';

/** The hooks of each backend, outermost first: the order the code below composes them in. */
export const STATEMENT_HOOKS = {
  postgres: ['count', 'deadline', 'connection'],
  pglite: ['count', 'parsers'],
} as const;

// ---- PostgreSQL ----------------------------------------------------------------------------------

type PgConfig = { text: string; query_timeout?: number } & Record<string, unknown>;
type PgQuery = (config: PgConfig, values?: unknown[]) => Promise<pg.QueryResult>;

const EMPTY: pg.QueryResult = { command: 'ROLLBACK', rowCount: 0, oid: 0, fields: [], rows: [] };
const isCommit = (c: PgConfig) => /^\s*commit\b/i.test(c.text);
const isRollback = (c: PgConfig) => /^\s*rollback\b/i.test(c.text);

const pgHooks: Record<
  (typeof STATEMENT_HOOKS.postgres)[number],
  (next: PgQuery, raw: pg.PoolClient) => PgQuery
> = {
  count: (next) => (config, values) => {
    if (roundTrips.enabled) roundTrips.db += 1;
    return next(config, values);
  },
  deadline: (next) => (config, values) => {
    const left = deadlineLeft();
    if (left === undefined) return next(config, values);
    if (left <= 0) return Promise.reject(new DeadlineExceeded());
    const bound = Math.ceil(left);
    return next(
      config.query_timeout && config.query_timeout < bound ? config : { ...config, query_timeout: bound },
      values,
    );
  },
  connection: (next, raw) => async (config, values) => {
    if (isRollback(config) && gone(raw)) return EMPTY;
    try {
      return await next(config, values);
    } catch (err) {
      if (isClientTimeout(err)) void raw.end().catch(() => {});
      if (isCommit(config) && !(err as { code?: unknown }).code) markOutcomeUnknown(err);
      throw err;
    }
  },
};

/** A pooled connection as Drizzle sees it: statements through the hooks, a release that is safe twice. */
export class SessionClient {
  readonly query: PgQuery;
  private released = false;
  private readonly closed = () => this.release(new Error('connection closed'));

  constructor(readonly raw: pg.PoolClient) {
    const driver: PgQuery = (config, values) => raw.query(config as pg.QueryConfig, values);
    let query = driver;
    for (const name of [...STATEMENT_HOOKS.postgres].reverse()) query = pgHooks[name](query, raw);
    this.query = (config, values) => query(typeof config === 'string' ? { text: config } : config, values);
    // Closed while checked out: back to the pool at once, removed. Drizzle's transaction sends BEGIN
    // before the block that releases its client, so a connection lost at BEGIN would hold its place.
    raw.once('end', this.closed);
  }

  release(err?: Error | boolean): void {
    if (this.released) return;
    this.released = true;
    this.raw.off('end', this.closed);
    this.raw.release(err || (unfit(this.raw) ? new Error('connection left unusable') : undefined));
  }
}

/**
 * The pool Drizzle is given. Its constructor's name holds "Pool": Drizzle's node-postgres session then
 * checks out one connection per transaction, as it does for pg's own Pool.
 */
export class SessionPool {
  constructor(readonly raw: pg.Pool) {
    raw.on('connect', watchClient);
  }

  /** A pooled connection, waited for no longer than the call's deadline. */
  async connect(): Promise<SessionClient> {
    const raw = await beforeDeadline(this.raw.connect(), 'a database connection', (late) => late.release());
    return new SessionClient(raw);
  }

  /** One statement on a connection of its own (no transaction). */
  async query(config: PgConfig | string, values?: unknown[]): Promise<pg.QueryResult> {
    const client = await this.connect();
    try {
      return await client.query(typeof config === 'string' ? { text: config } : config, values);
    } finally {
      client.release();
    }
  }

  end(): Promise<void> {
    return this.raw.end();
  }
}

// ---- PGlite --------------------------------------------------------------------------------------

type PgliteHook = (next: PgliteQuery) => PgliteQuery;

const pgliteHooks: Record<(typeof STATEMENT_HOOKS.pglite)[number], PgliteHook> = {
  count: (next) => (text, params, options) => {
    if (roundTrips.enabled) roundTrips.db += 1;
    return next(text, params, options);
  },
  parsers: (next) => (text, params, options) => next(text, params, withoutRedundantParsers(options)),
};

/** `prepared` (a statement run prepared, outside or inside a transaction) behind the hooks. */
function composePglite(prepared: PgliteQuery): PgliteQuery {
  let query = prepared;
  for (const name of [...STATEMENT_HOOKS.pglite].reverse()) query = pgliteHooks[name](query);
  return query;
}

/** The PGlite client Drizzle is given: `query` and `transaction`, the two it calls. */
export class SessionPglite {
  readonly query: PgliteQuery;
  readonly statements: PreparedStatements;
  private last: Promise<unknown> = Promise.resolve();

  constructor(readonly raw: PGlite) {
    this.statements = preparedStatements(raw);
    this.query = composePglite(this.statements.query);
  }

  transaction<T>(body: (tx: { query: PgliteQuery }) => Promise<T>): Promise<T> {
    const begin = () =>
      this.raw.transaction((tx) => {
        if (roundTrips.enabled) roundTrips.db += 2; // BEGIN and COMMIT (or ROLLBACK)
        return body({ query: composePglite(this.statements.queryIn(tx)) });
      });
    const run = this.last.then(turn).then(begin);
    this.last = run.catch(() => undefined);
    return run as Promise<T>;
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export type { QueryOptions, Results };
