// Idempotency keys: a retry never does the work twice (docs/reliability.md, "Retries"). A call to a
// creating or spending tool that carries an `idempotencyKey` first claims (connection, key) in
// `idempotency_keys`, whose primary key lets one call hold it:
// - the same key with the same arguments (one fingerprint over the tool's name and parsed input) gets
//   the first call's data again, and nothing runs;
// - the same key with other arguments is refused with `idempotency_conflict`, and nothing runs;
// - a call that fails or is refused gives the key back, so the retry runs afresh.
// Where the claim lives depends on how the tool meets the database:
// - inside the effect's one transaction: the claim, the effect and the stored answer commit together
//   or not at all. On PostgreSQL a second caller's INSERT waits on the first's uncommitted row and
//   then finds its answer (READ COMMITTED: the next statement sees the committed row); a rollback
//   frees the key by itself;
// - in a statement of its own, for tools that commit in transactions of their own (imports, crawls,
//   generate_image): the claim is committed as `running` with a lease before the work starts, the
//   answer stored after it, the row deleted if the work fails. A repeat that finds it running waits a
//   bounded while for the answer, then is told to call again (`conflict`). A claim whose process died
//   is taken over, with the same arguments only, once its lease has run out (like credit reservations,
//   src/domain/library/generate.ts). The one window left: the work committed and the process died
//   before its answer was stored; the retry after the lease runs it again.
import { deleteInBatches } from '../../db/purge.js';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema.js';
import { Refusal } from '../../kernel/errors.js';
import { sha256OfCanonicalJson } from '../../kernel/fingerprint.js';
import type { Clock } from '../context.js';

/** How long a key answers with its first result (then retention deletes it). */
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A running claim older than this belongs to a call whose process died (the longest tool ends well before). */
export const IDEMPOTENCY_LEASE_MS = 10 * 60_000;
/** How often, and how many times, a repeat looks for the answer of a first call still running. */
const RUNNING_WAIT = { polls: 40, everyMs: 250 };

/** The Activity line of a replay: no arguments, no key, no personal data. */
export const REPLAY_SUMMARY =
  'Replayed the first answer of an earlier call with the same idempotency key: nothing written or charged';

export type KeyedCall = {
  connectionId: string;
  key: string;
  tool: string;
  /** The parsed arguments without the key: what "the same request" means. */
  input: Record<string, unknown>;
  /** The website the call runs on (the gate's): an erasure on that site finds the answer by it. */
  websiteId: string;
};

/**
 * The data, and whether it is a replay. A replay carries `targets`: the other websites the first call
 * was authorized on, which the caller must re-authorize before it answers (src/mcp/call.ts).
 */
export type Once<T> = { data: T; replayed: false } | { data: T; replayed: true; targets: string[] };

type Claim =
  | { kind: 'claimed'; token: string }
  | { kind: 'replay'; data: unknown; targets: string[] }
  | { kind: 'running' };

const pk = (c: KeyedCall) =>
  and(eq(idempotencyKeys.connectionId, c.connectionId), eq(idempotencyKeys.key, c.key));

/** Claims the key, or says what holds it: the first answer, or a first call still running. */
async function claim(db: Db, c: KeyedCall, fingerprint: string, now: Date): Promise<Claim | null> {
  const token = randomUUID();
  const row = {
    tool: c.tool,
    fingerprint,
    claim: token,
    status: 'running',
    result: null,
    targets: [],
    leaseUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    createdAt: now,
  };
  const won = await db
    .insert(idempotencyKeys)
    .values({ connectionId: c.connectionId, key: c.key, websiteId: c.websiteId, ...row })
    .onConflictDoUpdate({
      target: [idempotencyKeys.connectionId, idempotencyKeys.key],
      set: row,
      // A key past its day is new again; a running claim past its lease (its process died) is taken
      // over by the same request only.
      setWhere: sql`${idempotencyKeys.expiresAt} <= ${now} or (${idempotencyKeys.status} = 'running' and ${idempotencyKeys.leaseUntil} <= ${now} and ${idempotencyKeys.fingerprint} = ${fingerprint})`,
    })
    .returning({ claim: idempotencyKeys.claim });
  if (won.length) return { kind: 'claimed', token };
  const [held] = await db
    .select({
      tool: idempotencyKeys.tool,
      fingerprint: idempotencyKeys.fingerprint,
      status: idempotencyKeys.status,
      result: idempotencyKeys.result,
      targets: idempotencyKeys.targets,
    })
    .from(idempotencyKeys)
    .where(pk(c));
  // Released (the first call failed) or purged between the two statements: try again.
  if (!held) return null;
  if (held.fingerprint !== fingerprint) {
    throw new Refusal(
      'idempotency_conflict',
      held.tool === c.tool
        ? `This idempotencyKey was already used by this connection for ${c.tool} with other arguments. Nothing was changed.`
        : `This idempotencyKey was already used by this connection for ${held.tool}. Nothing was changed.`,
      'Use a new idempotencyKey for a new request; repeat a request only with exactly its first arguments.',
    );
  }
  if (held.status === 'erased') throw erasedAnswer();
  if (held.status === 'done') {
    return { kind: 'replay', data: JSON.parse(held.result ?? 'null'), targets: held.targets };
  }
  return { kind: 'running' };
}

/** The repeat of a call whose stored answer an erasure took away: the key stays spent. */
const erasedAnswer = () =>
  new Refusal(
    'not_found',
    'The first answer of this idempotencyKey is no longer available: the owner erased personal data it held. Nothing was changed by this call.',
    'If the request still stands, make it with a new idempotencyKey.',
  );

const stillRunning = () =>
  new Refusal(
    'conflict',
    'An earlier call with this idempotencyKey is still running. Nothing was changed by this call.',
    'Call again with the same idempotencyKey and arguments in a few seconds: you will get the first call’s result, and it will not run twice.',
  );

/**
 * Runs `work` once per (connection, key): the first call runs it and stores its data; a repeat with the
 * same arguments gets that data (`replayed`). `db` is the effect's own transaction when
 * `inTransaction` (the claim commits or rolls back with it), else the pool (claim, answer and release
 * are statements of their own, and a repeat waits for a running first call).
 */
export async function runOnce<T>(
  db: Db,
  c: KeyedCall,
  opts: {
    clock: Clock;
    inTransaction: boolean;
    wait?: { polls: number; everyMs: number };
    /** The other websites the work was authorized on, read when its answer is stored. */
    targets?: () => readonly string[];
  },
  work: () => Promise<T>,
): Promise<Once<T>> {
  const fingerprint = sha256OfCanonicalJson({ tool: c.tool, input: c.input });
  const wait = opts.wait ?? RUNNING_WAIT;
  let got: Claim | null = null;
  for (let attempt = 0; attempt <= wait.polls; attempt += 1) {
    got = await claim(db, c, fingerprint, opts.clock());
    if (got?.kind === 'claimed' || got?.kind === 'replay') break;
    // Inside one transaction a running row can only be another tool's (refused above) or gone: never wait.
    if (opts.inTransaction && got?.kind === 'running') throw stillRunning();
    if (got?.kind === 'running' && attempt < wait.polls) await sleep(wait.everyMs);
  }
  if (got?.kind === 'replay') return { data: got.data as T, replayed: true, targets: got.targets };
  if (got?.kind !== 'claimed') throw stillRunning();
  const token = got.token;
  let data: T;
  try {
    data = await work();
  } catch (err) {
    // Inside the transaction the rollback frees the key; outside it the claim is deleted here.
    // A release that fails leaves the claim to its lease; the work's own error is what the caller sees.
    if (!opts.inTransaction) await release(db, c, token).catch(() => undefined);
    throw err;
  }
  await db
    .update(idempotencyKeys)
    .set({ status: 'done', result: JSON.stringify(data) ?? 'null', targets: [...(opts.targets?.() ?? [])] })
    .where(and(pk(c), eq(idempotencyKeys.claim, token)));
  return { data, replayed: false };
}

async function release(db: Db, c: KeyedCall, token: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(pk(c), eq(idempotencyKeys.claim, token)));
}

/**
 * Frees every running claim: their calls died with their process. Only where no other process can
 * hold one (the embedded database, at start); elsewhere a dead call's claim waits for its lease.
 */
export async function releaseRunningClaims(db: Db): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(eq(idempotencyKeys.status, 'running'))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}

/** Retention: keys past their day are forgotten. Returns how many rows were deleted. */
export async function purgeIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return deleteInBatches(db, idempotencyKeys, lt(idempotencyKeys.expiresAt, now));
}

/**
 * Erasure (src/domain/crm/erase.ts): the stored answers of calls on `websiteId` that hold `email` are
 * taken away. The row stays, `erased` and without its answer, so its key is still spent: a repeat is
 * refused (erasedAnswer), neither run again nor answered with what was erased. Found through the
 * website's index, then by the text of that site's answers of the last day (retention deletes older).
 * Returns how many answers were erased.
 */
export async function eraseStoredAnswers(tx: Db, websiteId: string, email: string): Promise<number> {
  // The address as the answer's JSON holds it (a quote or backslash in it is escaped there).
  const stored = JSON.stringify(email).slice(1, -1);
  const gone = await tx
    .update(idempotencyKeys)
    .set({ status: 'erased', result: null })
    .where(
      and(
        eq(idempotencyKeys.websiteId, websiteId),
        eq(idempotencyKeys.status, 'done'),
        sql`position(${stored} in lower(${idempotencyKeys.result})) > 0`,
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}
