// Every transaction Sitegate opens, opened here (test/architecture/write-path.test.ts: no other file
// calls `.transaction(`), with the lock order and the retry rule of R-REL-5 (docs/reliability.md, "Lock order").
//
// Lock order. A transaction that writes a workspace's rows first takes that workspace's write lock (a
// transaction-scoped advisory lock keyed by the workspace id; several in ascending id order), and only
// then any row lock: the website row before its pages and sections, sections by id. Every write of a
// workspace's content also bumps its one cache-version row (migration 0007), and a group of writes
// (src/db/group-commit.ts) edits sections of any of the workspace's websites: without the workspace
// lock first, two processes' groups took section rows and that version row in opposite orders and
// deadlocked. With it, a workspace's write transactions run one after another across processes, as
// they already did within one, and each waits before it holds anything.
//
// Retries. A deadlock or serialization failure that still happens (40P01, 40001: PostgreSQL undid the
// whole transaction) runs the transaction again, up to MAX_ATTEMPTS times in all, after a short
// random pause, while the call's deadline allows; a body may therefore run more than once, and must
// keep its side effects inside the transaction or in `afterCommit` work.
//
// PGlite runs one transaction at a time in one process: there is no one to wait for, and no lock.
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';
import { deadlineLeft } from './deadline.js';
import { isRetryable } from './failures.js';

/** How many times in all a transaction PostgreSQL undid is run. */
export const MAX_ATTEMPTS = 4;

/** The advisory-lock class of workspace write locks (any fixed number; the key is the workspace id). */
const WORKSPACE_LOCK_CLASS = 7163;

const embedded = new WeakSet<object>();

/** Records that `db` runs on PGlite (src/db/client.ts). */
export function markPglite(db: Db): void {
  embedded.add(db);
}

/**
 * What a transaction locks first: the workspaces whose rows it writes, by id or by one of their
 * websites (the workspace is read from the website's row in the same statement), or `none`, with the
 * reason no existing row of a workspace is locked or written (reads, a visitor's new rows, the demo's
 * own advisory lock).
 */
export type LockFirst =
  | { workspaces: readonly string[] }
  | { workspacesOfWebsites: readonly string[] }
  | { none: string };

/** The workspace write locks, in ascending id order, in `tx`. */
async function lockWorkspaces(tx: Db, first: LockFirst): Promise<void> {
  if ('workspacesOfWebsites' in first) {
    const ids = sql.join(
      first.workspacesOfWebsites.map((id) => sql`${id}`),
      sql`, `,
    );
    await tx.execute(sql`select pg_advisory_xact_lock(${WORKSPACE_LOCK_CLASS}, hashtext(w.company_id))
      from (select distinct company_id from websites where id in (${ids}) order by company_id) w`);
    return;
  }
  if (!('workspaces' in first)) return;
  for (const id of [...new Set(first.workspaces)].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(${WORKSPACE_LOCK_CLASS}, hashtext(${id}))`);
  }
}

const pause = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));

/**
 * Runs `work` in one transaction on `db` that takes `first`'s locks before anything else, again when
 * PostgreSQL undid it (see above). `work` may run more than once.
 */
export async function transaction<T>(db: Db, first: LockFirst, work: (tx: Db) => Promise<T>): Promise<T> {
  const locks = !embedded.has(db) && !('none' in first);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        if (locks) await lockWorkspaces(tx as unknown as Db, first);
        return work(tx as unknown as Db);
      });
    } catch (err) {
      const left = deadlineLeft();
      if (!isRetryable(err) || attempt >= MAX_ATTEMPTS || (left !== undefined && left <= 0)) throw err;
      await pause(attempt);
    }
  }
}

/** The workspaces a transaction writes, for `transaction`. */
export const workspaces = (...ids: string[]): LockFirst => ({ workspaces: ids });

/** The workspaces of the websites whose rows a transaction writes, for `transaction`. */
export const workspaceOf = (...websiteIds: string[]): LockFirst => ({ workspacesOfWebsites: websiteIds });

/** A transaction that only reads (one consistent snapshot). */
export const READS: LockFirst = { none: 'reads only' };
