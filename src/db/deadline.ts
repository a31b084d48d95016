// How long a call may wait on the database in all (R-REL-6; docs/reliability.md, "Database stalls"). A
// person or an assistant waits for each call: an interactive call (a tool call, a page, a form) gets
// DB_CALL_TIMEOUT_MS from the moment its request arrived, for everything it waits on: a pooled
// connection, its turn in its workspace's write group, each statement. Long work (imports, migrations,
// image generation) runs under DB_LONG_WORK_TIMEOUT_MS instead. Past the deadline no statement is sent, and a
// statement in flight is given up on the client side (src/db/session.ts), its connection closed, so what
// was not committed never will be; the call answers `unavailable` with nothing changed.
// The deadline travels with the call's async context (AsyncLocalStorage), so domain code passes nothing.
import { AsyncLocalStorage } from 'node:async_hooks';

const store = new AsyncLocalStorage<{ at: number }>();

/** Runs `fn` with a deadline `ms` from now; an earlier deadline already in force stays in force. */
export function withDeadline<T>(ms: number, fn: () => T): T {
  return withDeadlineAt(performance.now() + ms, fn);
}

/**
 * Runs `fn` with the deadline `at` (a `performance.now()` instant). Inside a deadline, `at` may only
 * shorten it; `replace` sets it whatever was in force (long work started by an interactive request).
 */
export function withDeadlineAt<T>(at: number, fn: () => T, replace = false): T {
  const outer = store.getStore();
  return store.run({ at: outer && !replace ? Math.min(outer.at, at) : at }, fn);
}

/** Runs `fn` as long work: its own deadline, `ms` from now, instead of the request's. */
export function asLongWork<T>(ms: number, fn: () => T): T {
  return withDeadlineAt(performance.now() + ms, fn, true);
}

/** Runs `fn` with no deadline: work that outlives the call (Activity batches, mail after the commit). */
export function outsideDeadline<T>(fn: () => T): T {
  return store.exit(fn);
}

/** The deadline in force (a `performance.now()` instant), or undefined outside any. */
export function deadlineAt(): number | undefined {
  return store.getStore()?.at;
}

/** Milliseconds left before the deadline in force, or undefined outside any. */
export function deadlineLeft(): number | undefined {
  const at = store.getStore()?.at;
  return at === undefined ? undefined : at - performance.now();
}

/** Thrown instead of sending a statement, or of waiting longer for a connection, past the deadline. */
export class DeadlineExceeded extends Error {
  constructor(what = 'the database') {
    super(`The call's time to wait on ${what} ran out`);
    this.name = 'DeadlineExceeded';
  }
}

/**
 * `p`, or a DeadlineExceeded once the deadline in force passes; `abandon` gets what `p` yields after
 * that (a pooled connection to give back).
 */
export function beforeDeadline<T>(p: Promise<T>, what: string, abandon?: (late: T) => void): Promise<T> {
  const left = deadlineLeft();
  if (left === undefined) return p;
  if (left <= 0) {
    void p.then(abandon, () => {});
    return Promise.reject(new DeadlineExceeded(what));
  }
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  return Promise.race([
    p.then((value) => {
      if (late) abandon?.(value);
      return value;
    }),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => {
        late = true;
        reject(new DeadlineExceeded(what));
      }, left);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}
