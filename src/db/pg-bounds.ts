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
// - A client that failed or timed out is closed and never handed out again (src/db/session.ts applies
//   these rules to every statement and every checkout).
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
    // A statement whose client gave up (its call's deadline, src/db/session.ts) and closed the
    // connection is ended by the server within a second, even while it waits on a lock.
    options: '-c client_connection_check_interval=1000',
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
 * Makes a pooled connection's failure harmless to the process (src/db/session.ts wires it to the pool's
 * 'connect'): every client gets an 'error' listener for its whole life (pg-pool listens only while it
 * is idle, and an unheard 'error' ends the process); the request holding it sees the failure as its
 * statement's error, and the pool then drops it.
 */
export function watchClient(client: pg.PoolClient): void {
  client.on('error', () => {});
}

/** pg's client-side statement bound fired: the statement is still on the wire. */
export function isClientTimeout(err: unknown): boolean {
  return (err as { message?: unknown } | null)?.message === CLIENT_TIMEOUT;
}

type Internals = { _ending?: boolean; _queryable?: boolean };

/** The connection is closed or closing: nothing sent on it will run. */
export function gone(client: pg.PoolClient): boolean {
  const c = client as pg.PoolClient & Internals;
  return c._ending === true || c._queryable === false;
}

/** A client that must not be handed to the next request: gone, or left inside a transaction. */
export function unfit(client: pg.PoolClient): boolean {
  return gone(client) || client.getTransactionStatus?.() !== 'I';
}
