// Activity (R-ACT-1): one line per tool call — allowed, denied or failed — without personal data.
// Two paths (docs/reliability.md):
// - a write's line is inserted by `recordIn(tx, line)` inside the write's own transaction, so a committed
//   write always has its line, whatever happens to the process afterwards (R-ACT-2);
// - reads, refusals and failures are buffered and written in batches (one INSERT per flush) by `record`;
//   a crash may lose the last few milliseconds of those. `flush()` is awaited on shutdown and by tests.
// Rate-limited refusals are counted, not written one by one: one line per connection per minute window
// carries the number refused (R-ACT-3), so a client hammering past its limit costs no rows.
import { deleteInBatches } from '../../db/purge.js';
import { lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { fixedSql } from '../../db/named.js';
import { activity, connections } from '../../db/schema.js';
import { outsideDeadline } from '../../db/deadline.js';

export type ActivityLine = {
  companyId: string;
  websiteId: string | null;
  connectionId: string | null;
  tool: string;
  outcome: 'allowed' | 'denied' | 'failed';
  code?: string | null;
  summary: string;
  creditsSpent?: number;
  requestId?: string | null;
  createdAt: Date;
};

export const ACTIVITY_RETENTION_DAYS = 90;

export type ActivityRecorder = {
  /** Buffers a line (reads, refusals, failures); rate-limited refusals are counted per connection-minute. */
  record(line: ActivityLine): void;
  /** Writes a line in the caller's transaction: it commits or rolls back with the write it describes. */
  recordIn(tx: Db, ...lines: ActivityLine[]): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
};

export function activityRecorder(
  db: Db,
  log: Logger,
  opts: { intervalMs?: number; maxBatch?: number; refusalWindowMs?: number } = {},
) {
  const intervalMs = opts.intervalMs ?? 10;
  const maxBatch = opts.maxBatch ?? 100;
  const windowMs = opts.refusalWindowMs ?? 60_000;
  let buffer: ActivityLine[] = [];
  // "Last used" of connections whose lines were written in a transaction: updated with the next batch.
  let touched = new Map<string, Date>();
  // Rate-limited refusals being counted: connection (or workspace) -> the open window's first line.
  const refusals = new Map<string, { line: ActivityLine; count: number; until: number }>();
  let timer: NodeJS.Timeout | null = null;
  let windowTimer: NodeJS.Timeout | null = null;
  let inflight: Promise<void> = Promise.resolve();
  const lastUsed = lastUsedWriter(db);

  const write = async (lines: ActivityLine[], last: Map<string, Date>) => {
    try {
      await insertActivity(db, lines);
      for (const l of lines) if (l.connectionId) last.set(l.connectionId, l.createdAt);
      await lastUsed.write(last);
    } catch (err) {
      log.error({ err, lines: lines.length }, 'activity write failed');
    }
  };

  // Closes the refusal windows that have ended (all of them when `all`): each becomes one line.
  const closeWindows = (all: boolean) => {
    const now = Date.now();
    for (const [key, w] of refusals) {
      if (!all && w.until > now) continue;
      refusals.delete(key);
      buffer.push({
        ...w.line,
        summary:
          w.count === 1
            ? w.line.summary
            : `${w.count} calls refused by the rate limit in one minute (first: ${w.line.tool})`,
      });
    }
    if (windowTimer) clearTimeout(windowTimer);
    windowTimer = null;
    if (refusals.size > 0) {
      const next = Math.min(...[...refusals.values()].map((w) => w.until));
      windowTimer = setTimeout(() => void flush(false), Math.max(1, next - now));
      windowTimer.unref();
    }
  };

  const flush = (all = true): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    closeWindows(all);
    const lines = buffer;
    const last = touched;
    buffer = [];
    touched = new Map();
    // A batch outlives the call that filled it: it is not bound by that call's deadline.
    if (lines.length > 0 || last.size > 0)
      inflight = inflight.then(() => outsideDeadline(() => write(lines, last)));
    return inflight;
  };

  const schedule = () => {
    if (buffer.length >= maxBatch) void flush(false);
    else if (!timer) timer = setTimeout(() => void flush(false), intervalMs);
  };

  return {
    record(line: ActivityLine) {
      if (line.code === 'rate_limited') {
        const key = line.connectionId ?? `company:${line.companyId}`;
        const open = refusals.get(key);
        if (open) {
          open.count += 1;
          return;
        }
        refusals.set(key, { line, count: 1, until: Date.now() + windowMs });
        closeWindows(false);
        return;
      }
      buffer.push(line);
      schedule();
    },
    async recordIn(tx: Db, ...lines: ActivityLine[]) {
      await insertActivity(tx, lines);
      for (const line of lines) {
        if (!line.connectionId) continue;
        touched.set(line.connectionId, line.createdAt);
        if (!timer) timer = setTimeout(() => void flush(false), intervalMs);
      }
    },
    flush: () => flush(true),
    close: () => flush(true),
  } satisfies ActivityRecorder;
}

/**
 * How stale "Last used" on the Developers page may be (it shows minutes). A connection's time is written
 * on its first call and then at most once a window: under load every flush updated the rows of
 * every busy connection (docs/performance.md).
 */
export const LAST_USED_EVERY_MS = 60_000;

/** Writes connections' "last used" times, each exactly, in one UPDATE; skips those written lately. */
function lastUsedWriter(db: Db) {
  const written = new Map<string, number>(); // connection -> the time last written
  let prunedAt = Number.NEGATIVE_INFINITY;
  return {
    async write(last: Map<string, Date>) {
      const due = [...last].filter(
        ([id, at]) => at.getTime() - (written.get(id) ?? Number.NEGATIVE_INFINITY) >= LAST_USED_EVERY_MS,
      );
      if (due.length === 0) return;
      const rows = due.map(([id, at]) => ({ id, at: at.toISOString() }));
      await db.execute(sql`
        update ${connections} set last_used_at = x.at
        from json_to_recordset(${JSON.stringify(rows)}::json) as x(id text, at timestamptz)
        where ${connections.id} = x.id`);
      for (const [id, at] of due) written.set(id, at.getTime());
      // Bounded: once a window at most, forget connections not written within it (their next call
      // writes again), so a flush never scans the whole map.
      const newest = Math.max(...due.map(([, at]) => at.getTime()));
      if (written.size > 10_000 && newest - prunedAt >= LAST_USED_EVERY_MS) {
        prunedAt = newest;
        for (const [id, t] of written) if (newest - t >= LAST_USED_EVERY_MS) written.delete(id);
      }
    },
  };
}

/** One INSERT for any number of lines (inside a transaction when `db` is one). */
export async function insertActivity(db: Db, lines: ActivityLine[]): Promise<void> {
  if (lines.length === 0) return;
  // One parameter for the whole batch: on PGlite this is ~7x cheaper than a VALUES list
  // with ten parameters a row (measured in bench notes), and it is still parameterised SQL.
  const rows = lines.map((l) => ({
    company_id: l.companyId,
    website_id: l.websiteId,
    connection_id: l.connectionId,
    tool: l.tool,
    outcome: l.outcome,
    code: l.code ?? null,
    summary: oneLine(l.summary),
    credits_spent: l.creditsSpent ?? 0,
    request_id: l.requestId ?? null,
    created_at: l.createdAt.toISOString(),
  }));
  await activityInsert(db, { rows: JSON.stringify(rows) });
}

// One text for any batch, so a fixed statement (src/db/named.ts).
const activityInsert = fixedSql(
  'sitegate_activity_insert',
  () => sql`
    insert into activity (company_id, website_id, connection_id, tool, outcome, code, summary, credits_spent, request_id, created_at)
    select * from json_to_recordset(${sql.placeholder('rows')}::json) as x(
      company_id text, website_id text, connection_id text, tool text, outcome text, code text,
      summary text, credits_spent int, request_id text, created_at timestamptz)`,
);

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** Deletes Activity older than the retention window; the running service calls this periodically. */
export async function purgeActivity(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - ACTIVITY_RETENTION_DAYS * 86_400_000);
  return deleteInBatches(db, activity, lt(activity.createdAt, cutoff));
}
