// `sitegate serve` on PostgreSQL waits for the database at start: a process started beside its
// database (a compose file, a machine booting, a failover in progress) would otherwise exit at once.
// It retries with back-off for DB_START_WAIT_MS, says on stderr what it waits for (the server's
// address, never the credentials of DATABASE_URL), and gives up with a clear message when the time
// is over. A refusal that waiting cannot mend (a wrong password, a database that does not exist) ends
// the wait at once.
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

/** SQLSTATEs that mean "not yet": the server is starting or shutting down, or is full. */
const PASSING = new Set(['57P03', '53300', '57P01', '57P02']);

const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5_000;
/** While waiting, the stderr line is repeated this often, so a log shows the wait is still going. */
const SAY_AGAIN_MS = 10_000;

/** `host:port/database` of a postgres:// URL, without user or password. */
function databaseAddress(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname || u.searchParams.get('host') || 'localhost';
    return `${host}:${u.port || '5432'}${u.pathname || '/'}`;
  } catch {
    return 'the server of DATABASE_URL';
  }
}

/** The driver's error under Drizzle's wrapper (whose message would carry the statement). */
const cause = (err: unknown) =>
  ((err as { cause?: unknown }).cause ?? err) as { code?: string; message?: string };

/** Why a connection attempt failed, in a few words without secrets. */
function reason(err: unknown): string {
  const e = cause(err);
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  if (e.code === 'ECONNRESET' || e.code === 'EPIPE') return 'connection reset';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'host name not found';
  if (e.code === 'ETIMEDOUT' || /timeout/i.test(e.message ?? '')) return 'no answer in time';
  if (e.code === '57P03') return 'the database system is starting up';
  return (e.message ?? String(e)).split('\n')[0]!.slice(0, 200);
}

/** A PostgreSQL refusal that waiting will not change. */
const final = (err: unknown) => {
  const code = cause(err).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !PASSING.has(code);
};

export async function waitForDatabase(
  db: Db,
  opts: { url: string; waitMs: number; say: (line: string) => void },
): Promise<void> {
  const where = databaseAddress(opts.url);
  const started = Date.now();
  let pause = FIRST_PAUSE_MS;
  let saidAt = 0;
  for (;;) {
    try {
      await db.execute(sql`select 1`);
      if (saidAt) opts.say(`PostgreSQL at ${where} answers; starting.\n`);
      return;
    } catch (err) {
      const waited = Date.now() - started;
      if (final(err)) {
        throw new Error(`PostgreSQL at ${where} refused the connection: ${reason(err)}. Check DATABASE_URL.`);
      }
      if (waited >= opts.waitMs) {
        throw new Error(
          `PostgreSQL at ${where} could not be reached within ${Math.round(opts.waitMs / 1000)} s ` +
            `(${reason(err)}). Check that it is running and that DATABASE_URL points at it; ` +
            'DB_START_WAIT_MS sets how long to wait.',
        );
      }
      if (!saidAt || Date.now() - saidAt >= SAY_AGAIN_MS) {
        opts.say(
          `Waiting for PostgreSQL at ${where} (${reason(err)}); retrying for up to ` +
            `${Math.ceil((opts.waitMs - waited) / 1000)} s more.\n`,
        );
        saidAt = Date.now();
      }
      await new Promise((r) => setTimeout(r, Math.min(pause, Math.max(0, opts.waitMs - waited))));
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
}
