// What a database failure means for the call that met it (R-REL-5, R-REL-6; docs/reliability.md,
// "Lock order" and "Database stalls"). Three kinds matter to the call path:
// - retryable: PostgreSQL chose this transaction to undo (deadlock 40P01, serialization failure 40001);
//   it rolled back whole, so running it again is safe (src/db/transactions.ts does, a bounded number of
//   times);
// - unavailable: the database did not answer in time or the connection went away before the commit was
//   sent: nothing was committed, and the caller may try again (`unavailable`, src/kernel/errors.ts);
// - outcome unknown: the connection failed while the commit was on its way; it may have happened. Only
//   the ordinary failure with its request id is true then.
import { DeadlineExceeded } from './deadline.js';

const RETRYABLE = new Set(['40P01', '40001']);

/** SQLSTATE classes and codes that say the server or the connection gave up, not the statement's data. */
const GAVE_UP = new Set([
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
]);

/** Messages of node-postgres and its pool when a connection failed or was given up on. */
const CONNECTION_MESSAGES = [
  'Query read timeout', // pg's client-side query_timeout
  'timeout exceeded when trying to connect', // pg-pool's connectionTimeoutMillis
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'connection closed',
];

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

const unknownOutcome = new WeakSet<object>();

/** Marks `err`, met while a COMMIT was on its way, as one whose transaction may have committed. */
export function markOutcomeUnknown(err: unknown): void {
  if (err && typeof err === 'object') unknownOutcome.add(err);
}

function* chain(err: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    yield e as { code?: unknown; message?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
}

/** PostgreSQL undid the transaction to break a deadlock or a serialization conflict: run it again. */
export function isRetryable(err: unknown): boolean {
  for (const e of chain(err)) if (typeof e.code === 'string' && RETRYABLE.has(e.code)) return true;
  return false;
}

/** The commit may have happened: the caller cannot be told that nothing changed. */
export function isOutcomeUnknown(err: unknown): boolean {
  for (const e of chain(err)) if (unknownOutcome.has(e)) return true;
  return false;
}

/**
 * The database did not answer in time, was unreachable or refused work for now, and nothing was
 * committed: the call may say "nothing was changed, try again". Deadlocks left after the retries are
 * among them (rolled back whole).
 */
export function isUnavailable(err: unknown): boolean {
  if (isOutcomeUnknown(err)) return false;
  for (const e of chain(err)) {
    if (e instanceof DeadlineExceeded) return true;
    const code = typeof e.code === 'string' ? e.code : '';
    if (GAVE_UP.has(code) || RETRYABLE.has(code) || code.startsWith('08') || NETWORK_CODES.has(code))
      return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (CONNECTION_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}
