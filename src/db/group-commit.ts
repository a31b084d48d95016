// Group commit for a workspace's single-transaction writes. While one of a workspace's transactions is
// in flight, the workspace's next writes wait here; when it ends, all of them (up to `max`) run one
// after another in ONE transaction: one BEGIN, one COMMIT and its one flush to disk, and one insert for
// all their Activity lines, instead of one of each per call. Each call still runs its own gate check,
// its own work and its own line in that transaction, in arrival order, and is answered only after the
// commit; so what each call sees is what it would have seen had they run one by one in that order.
//
// A group commits only if every call in it succeeds. When one refuses or fails, the transaction is
// rolled back and every call of the group runs again alone, in a transaction of its own (the path a
// lone call always takes), so one call's refusal never undoes another's write. A failure at the commit
// itself is not retried: the commit may have happened, and a second run would do the work twice.
//
// A group is closed once its transaction holds the workspace's write lock: the calls that arrived while
// it waited for the lock (another process's group held it) join it then, so two processes writing one
// workspace take turns with groups as large as one process forms, not with the few calls each had
// when its turn began.
//
// On PostgreSQL the group takes its workspace's write lock first (the key is the workspace's id;
// src/db/transactions.ts) and holds the workspace's rows for one transaction instead of handing them from
// transaction to transaction, each hand-over waiting on this process's event loop; the pool's other
// connections stay free for reads and other workspaces. PGlite runs one transaction at a time anyway:
// there the group saves a flush per call.
//
// Each call keeps its own deadline (src/db/deadline.ts): one that waited past it here is answered
// without running, a group runs within the earliest deadline of its calls, and a call run alone within
// its own.
import type { Db } from './client.js';
import { DeadlineExceeded, deadlineAt, outsideDeadline, withDeadlineAt } from './deadline.js';
import { isRetryable } from './failures.js';
import { transaction, workspaces } from './transactions.js';

/** A call's work in the group's transaction: its answer, and the line committed with it. */
export type GroupWork<T, L> = (tx: Db) => Promise<{ value: T; line: L }>;
export type GroupCommit<L> = <T>(key: string, work: GroupWork<T, L>) => Promise<T>;

type Job<L> = {
  work: GroupWork<unknown, L>;
  /** The call's deadline (a performance.now() instant), if it has one. */
  at: number | undefined;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
};

/** Thrown inside the group's transaction when one of its calls refused or failed: it rolls back. */
class GroupMemberFailed extends Error {}

export function groupCommit<L>(
  db: Db,
  opts: {
    /** The most calls one transaction takes. */
    max: number;
    /** Writes the group's lines in its transaction, just before the commit. */
    beforeCommit: (tx: Db, lines: L[]) => Promise<void>;
  },
): GroupCommit<L> {
  if (!(opts.max >= 1)) throw new RangeError('max must be at least 1');
  // A key is present while one of its transactions is in flight; its array holds the calls waiting.
  const waiting = new Map<string, Job<L>[]>();

  // Each group runs in the context of the call that started the loop: the deadline is set anew.
  const within = <T>(at: number | undefined, run: () => Promise<T>) =>
    at === undefined ? outsideDeadline(run) : withDeadlineAt(at, run, true);

  const alone = async (job: Job<L>, key: string) => {
    try {
      job.resolve(
        await within(job.at, () =>
          transaction(db, workspaces(key), async (tx) => {
            const { value, line } = await job.work(tx);
            await opts.beforeCommit(tx, [line]);
            return value;
          }),
        ),
      );
    } catch (err) {
      job.reject(err);
    }
  };

  /**
   * Runs `first` and the calls that join it as one transaction. The group is closed once the
   * transaction holds its workspace's write lock: the calls that arrived while it waited for the lock
   * (another process's group held it) join it then, instead of waiting for the next group.
   */
  const together = async (first: Job<L>[], key: string) => {
    const jobs = [...first];
    let closed = false;
    let values: unknown[];
    const ats = jobs.map((j) => j.at).filter((at): at is number => at !== undefined);
    try {
      values = await within(ats.length ? Math.min(...ats) : undefined, () =>
        transaction(db, workspaces(key), async (tx) => {
          if (!closed) {
            closed = true;
            jobs.push(...due(waiting.get(key)!.splice(0, opts.max - jobs.length)));
          }
          const out: unknown[] = [];
          const lines: L[] = [];
          for (const job of jobs) {
            // A deadlock undoes the whole group, which runs again together; any other failure is the
            // call's own: a lone call's answer, or in a group, the calls run again alone.
            const done = await job.work(tx).catch((err) => {
              throw isRetryable(err) || jobs.length === 1 ? err : new GroupMemberFailed();
            });
            out.push(done.value);
            lines.push(done.line);
          }
          await opts.beforeCommit(tx, lines);
          return out;
        }),
      );
    } catch (err) {
      if (!(err instanceof GroupMemberFailed)) {
        for (const job of jobs) job.reject(err);
        return;
      }
      for (const job of jobs) await alone(job, key);
      return;
    }
    for (const [i, job] of jobs.entries()) job.resolve(values[i]);
  };

  /** The calls whose deadline passed while they waited are answered now, without running. */
  const due = (jobs: Job<L>[]) => {
    const now = performance.now();
    return jobs.filter((job) => {
      if (job.at === undefined || job.at > now) return true;
      job.reject(new DeadlineExceeded('its turn to write'));
      return false;
    });
  };

  const drive = async (key: string, first: Job<L>) => {
    let jobs = [first];
    while (jobs.length) {
      jobs = due(jobs);
      if (jobs.length) await together(jobs, key);
      // One turn of the event loop first: calls whose requests have arrived meanwhile join this group.
      await new Promise<void>((resolve) => setImmediate(resolve));
      jobs = waiting.get(key)!.splice(0, opts.max);
    }
    waiting.delete(key);
  };

  return <T>(key: string, work: GroupWork<T, L>) =>
    new Promise<T>((resolve, reject) => {
      const job: Job<L> = { work, at: deadlineAt(), resolve: resolve as (v: unknown) => void, reject };
      const queue = waiting.get(key);
      if (queue) queue.push(job);
      else {
        waiting.set(key, []);
        void drive(key, job);
      }
    });
}
