// Writes a transaction holds back until just before its next statement, or its commit (write-behind).
// A writer whose rows are locked by its transaction and unchanged since it last wrote them (a group's
// edits of one section, src/domain/sections/store.ts) may hold its next write here instead of sending
// it. What a connection holds is sent, in the order it was held, before any other statement runs on it
// and before its transaction commits; so every statement still sees what it would have seen had each
// write been sent at once, and a held write that fails still fails its transaction, which then rolls
// back. A rollback drops what is held. What is gained: many edits of one row are one statement.
//
// Only a transaction's own connection can hold writes (a pooled PostgreSQL client, a PGlite
// transaction), and only once `holdWritesOn` watches it; anywhere else `hold` says no and the writer
// sends its write itself.
import type { Db } from './client.js';

type Held = { flush: () => Promise<void> };
type Connection = { query: (...args: never[]) => unknown };

// What each watched connection holds, by key, in the order it was first held.
const heldOn = new WeakMap<object, Map<string, Held>>();

/** The connection a Drizzle transaction runs on (its session's client). */
function connectionOf(tx: Db): object | undefined {
  return (tx._.session as unknown as { client?: object }).client;
}

/** Sends everything the connection holds, oldest first; forgets it all even when one fails. */
async function flushConnection(conn: object): Promise<void> {
  const held = heldOn.get(conn);
  if (!held?.size) return;
  const writes = [...held.values()];
  held.clear();
  for (const write of writes) await write.flush();
}

/**
 * Watches a connection: before any statement it runs, what it holds is sent first. A failed held write
 * fails that statement instead of running it (it would meet an aborted transaction, and a COMMIT there
 * would roll back without an error).
 */
export function holdWritesOn<C extends Connection>(conn: C): C {
  if (heldOn.has(conn)) return conn;
  heldOn.set(conn, new Map());
  const query = conn.query.bind(conn) as (...args: unknown[]) => unknown;
  (conn as { query: unknown }).query = (...args: unknown[]) => {
    if (!heldOn.get(conn)?.size) return query(...args);
    const done = args.at(-1);
    const sent = flushConnection(conn).then(() => query(...args));
    // node-postgres's callback form (pg-pool's own pool.query) answers through the callback.
    if (typeof done === 'function') {
      sent.catch((err: unknown) => (done as (err: unknown) => void)(err));
      return undefined;
    }
    return sent;
  };
  return conn;
}

export type WriteBehind<S> = {
  /** What this transaction holds under `key`, if anything. */
  held(tx: Db, key: string): S | undefined;
  /**
   * Holds `state` under `key` until the transaction's next statement or its commit, when `flush`
   * sends it. False when this transaction's connection cannot hold writes: send the write now.
   */
  hold(tx: Db, key: string, state: S): boolean;
};

/** One kind of held write; `flush` sends one key's state in the transaction it was held in. */
export function writeBehind<S>(kind: string, flush: (tx: Db, state: S) => Promise<void>): WriteBehind<S> {
  const states = new WeakMap<Held, S>();
  const entry = (tx: Db, key: string) => heldOn.get(connectionOf(tx) ?? {})?.get(`${kind}\u0000${key}`);
  return {
    held(tx, key) {
      const found = entry(tx, key);
      return found ? states.get(found) : undefined;
    },
    hold(tx, key, state) {
      const held = heldOn.get(connectionOf(tx) ?? {});
      if (!held) return false;
      const write: Held = { flush: () => flush(tx, state) };
      states.set(write, state);
      held.set(`${kind}\u0000${key}`, write);
      return true;
    },
  };
}

/** Sends what the transaction holds (before its commit). */
export function sendHeldWrites(tx: Db): Promise<void> {
  const conn = connectionOf(tx);
  return conn ? flushConnection(conn) : Promise.resolve();
}

/** Forgets what the transaction holds (it is rolling back). */
function dropHeldWrites(tx: Db): void {
  const conn = connectionOf(tx);
  if (conn) heldOn.get(conn)?.clear();
}

/**
 * Makes every top-level transaction of `db` send what it holds before it commits and drop it when it
 * rolls back.
 */
export function settleHeldWrites(db: Db): void {
  const begin = db.transaction.bind(db);
  db.transaction = ((run: (tx: Db) => Promise<unknown>, config?: unknown) =>
    begin(
      async (tx) => {
        try {
          const value = await run(tx as unknown as Db);
          await sendHeldWrites(tx as unknown as Db);
          return value;
        } catch (err) {
          dropHeldWrites(tx as unknown as Db);
          throw err;
        }
      },
      config as Parameters<Db['transaction']>[1],
    )) as Db['transaction'];
}
