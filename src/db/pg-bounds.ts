// Bounds and fault handling for the PostgreSQL pool. Without them a stalled server (a partition, a
// frozen VM) hangs every statement for good, and a connection the server drops while a request holds
// it (pg_terminate_backend, a restart or failover, idle_in_transaction_session_timeout, a pooler)
// emits 'error' on a client nobody listens to, which ends the process.
// - Every statement is bounded twice: by the server (statement_timeout, which also ends lock waits)
//   and by the client a little later (pg's query_timeout), which still fires when no byte comes back.
// - Every connection attempt, and every wait for a free pooled connection, is bounded
//   (connectionTimeoutMillis); TCP keepalive lets the kernel notice a peer that went away.
// - A transaction left idle is ended by the server (idle_in_transaction_session_timeout), so the row
//   locks of a process that vanished mid-transaction are not held until TCP gives up.
// - A client that failed or timed out is closed and never handed out again.
import type pg from 'pg';
import type { DbBounds } from '../config.js';

/** How much longer the client waits than the server's statement_timeout before it gives up. */
const CLIENT_MARGIN_MS = 1_000;

/** How long a connection is quiet before the kernel starts probing its peer. */
const KEEPALIVE_DELAY_MS = 10_000;

/** pg's own message when its query_timeout fires (pg/lib/client.js). */
const CLIENT_TIMEOUT = 'Query read timeout';

export function poolOptions(url: string, max: number, bounds: DbBounds): pg.PoolConfig {
  return {
    connectionString: url,
    max,
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    statement_timeout: bounds.statementTimeoutMs,
    query_timeout: bounds.statementTimeoutMs + CLIENT_MARGIN_MS,
    idle_in_transaction_session_timeout: bounds.idleInTransactionTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  };
}

/** Options of a lone client (migrations): the same connection bounds, no statement bounds. */
export function loneClientOptions(url: string, bounds: DbBounds): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  };
}

/**
 * Makes a failed connection harmless to the process and to the next request:
 * - every client gets an 'error' listener for its whole life (pg-pool listens only while it is idle);
 * - a client whose statement timed out on the client side still has that statement on the wire, and
 *   everything sent after it would queue behind it: it is closed at once, so the statements queued on
 *   it (a transaction's ROLLBACK) fail now instead of each waiting out its own bound;
 * - a checked-out client given back broken, closed or inside a transaction is removed from the pool
 *   (pg-pool itself returns a client whose statement merely timed out, or whose ROLLBACK failed);
 * - a checked-out client whose connection closes is given back at once, removed: drizzle's
 *   node-postgres transaction sends BEGIN before the block that releases its client, so a connection
 *   lost at BEGIN would otherwise hold its place in the pool for good. A later release is a no-op.
 */
export function guardPool(pool: pg.Pool): void {
  const holders = new WeakMap<pg.PoolClient, (err?: Error | boolean) => void>();
  pool.on('connect', (client) => {
    // The request holding it sees the failure as its statement's error; the pool then drops it.
    client.on('error', () => {});
    client.on('end', () => holders.get(client)?.(new Error('connection closed')));
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const r = query(...args);
      if (r instanceof Promise) {
        r.catch((err: Error) => {
          if (err?.message === CLIENT_TIMEOUT) void client.end().catch(() => {});
        });
      }
      return r;
    };
  });
  const connect = pool.connect.bind(pool) as (cb?: unknown) => Promise<pg.PoolClient> | undefined;
  // The callback form is pg-pool's own pool.query, which releases with the query's error itself.
  (pool as { connect: unknown }).connect = (cb?: unknown) => {
    if (cb) return connect(cb);
    return connect()!.then((client) => {
      const release = client.release.bind(client);
      const once = (err?: Error | boolean) => {
        if (holders.get(client) !== once) return;
        holders.delete(client);
        release(err || (unfit(client) ? new Error('connection left unusable') : undefined));
      };
      holders.set(client, once);
      client.release = once;
      return client;
    });
  };
}

/** A client that must not be handed to the next request. */
function unfit(client: pg.PoolClient): boolean {
  const c = client as pg.PoolClient & { _ending?: boolean; _queryable?: boolean };
  return c._ending === true || c._queryable === false || client.getTransactionStatus?.() !== 'I';
}
