// Activity (SPEC §6, §8): one line per tool call — allowed, denied or failed — without personal data.
// Lines are buffered and written in batches (one INSERT per flush, not one per call) so the hot path
// does no synchronous write; `flush()` is awaited on shutdown and by tests before they read.
import { inArray, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { activity, connections } from '../../db/schema.js';

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
  record(line: ActivityLine): void;
  flush(): Promise<void>;
  close(): Promise<void>;
};

export function activityRecorder(db: Db, log: Logger, opts: { intervalMs?: number; maxBatch?: number } = {}) {
  const intervalMs = opts.intervalMs ?? 10;
  const maxBatch = opts.maxBatch ?? 100;
  let buffer: ActivityLine[] = [];
  let timer: NodeJS.Timeout | null = null;
  let inflight: Promise<void> = Promise.resolve();

  const write = async (lines: ActivityLine[]) => {
    if (lines.length === 0) return;
    try {
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
      await db.execute(sql`
        insert into activity (company_id, website_id, connection_id, tool, outcome, code, summary, credits_spent, request_id, created_at)
        select * from json_to_recordset(${JSON.stringify(rows)}::json) as x(
          company_id text, website_id text, connection_id text, tool text, outcome text, code text,
          summary text, credits_spent int, request_id text, created_at timestamptz)`);
      // "Last used" on the Developers page: one UPDATE per batch, not one per call.
      const last = new Map<string, Date>();
      for (const l of lines) if (l.connectionId) last.set(l.connectionId, l.createdAt);
      if (last.size > 0) {
        const newest = new Date(Math.max(...[...last.values()].map((d) => d.getTime())));
        await db
          .update(connections)
          .set({ lastUsedAt: newest })
          .where(inArray(connections.id, [...last.keys()]));
      }
    } catch (err) {
      log.error({ err, lines: lines.length }, 'activity write failed');
    }
  };

  const flush = (): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    const lines = buffer;
    buffer = [];
    inflight = inflight.then(() => write(lines));
    return inflight;
  };

  return {
    record(line: ActivityLine) {
      buffer.push(line);
      if (buffer.length >= maxBatch) void flush();
      else if (!timer) timer = setTimeout(() => void flush(), intervalMs);
    },
    flush,
    close: flush,
  } satisfies ActivityRecorder;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** Deletes Activity older than the retention window; the running service calls this periodically. */
export async function purgeActivity(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - ACTIVITY_RETENTION_DAYS * 86_400_000);
  const rows = await db.delete(activity).where(lt(activity.createdAt, cutoff)).returning({ id: activity.id });
  return rows.length;
}

export const activityCount = sql<number>`count(*)::int`;
