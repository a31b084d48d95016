// Analytics by UTC day: a day that is over is rolled up once into analytics_daily (per website, the
// events and distinct visitors of each kind, page, referrer and of all visits), so a summary over 30
// or 90 days reads a few rows per day instead of every event. The day still running, and any day the
// rollup has not reached yet, is read from the events themselves: a summary is right whether or not
// the job has run. A visitor's hash is salted per UTC day (R-VIS-3), so the visitors of different
// days are different hashes and add up exactly.
import { type SQL, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { analyticsDaily, analyticsRollup } from '../../db/schema.js';
import { deleteInBatches } from '../../db/purge.js';
import { type LockFirst, transaction } from '../../db/transactions.js';

const DAY_MS = 86_400_000;
const NEVER = '1970-01-01';

/** The rollup locks its own state row and adds daily rows: no row of a workspace is locked or written. */
const ROLLUP_ONLY: LockFirst = { none: 'the rollup state row and new daily rows only' };

/** YYYY-MM-DD of the UTC day `d` falls in. */
export const utcDayOf = (d: Date) => d.toISOString().slice(0, 10);

/** Midnight UTC of the day `d` falls in. */
export const startOfUtcDay = (d: Date) => new Date(`${utcDayOf(d)}T00:00:00.000Z`);

/** The figures a day is rolled up into: by kind, by page, by referrer, and all visits. */
export type Dim = 'kind' | 'path' | 'referrer' | 'visit';
const ALL_DIMS: readonly Dim[] = ['kind', 'path', 'referrer', 'visit'];

/**
 * The rows of analytics_daily for the events `where` selects, by website and UTC day: every figure, or
 * those of `dims` alone (each is one more read of the events).
 */
function aggregated(where: SQL, dims: readonly Dim[] = ALL_DIMS): SQL {
  const day = sql`(occurred_at at time zone 'UTC')::date`;
  const figures = sql`count(*)::int, count(distinct visitor_hash)::int`;
  const of: Record<Dim, SQL> = {
    kind: sql`select website_id, ${day}, 'kind', kind, ${figures} from analytics_events
      where ${where} group by 1, 2, 4`,
    path: sql`select website_id, ${day}, 'path', path, ${figures} from analytics_events
      where ${where} and kind = 'pageview' group by 1, 2, 4`,
    referrer: sql`select website_id, ${day}, 'referrer', referrer, ${figures} from analytics_events
      where ${where} and kind = 'pageview' and referrer is not null group by 1, 2, 4`,
    visit: sql`select website_id, ${day}, 'visit', 'any', ${figures} from analytics_events
      where ${where} and kind in ('pageview', 'assistant') group by 1, 2`,
  };
  return sql.join(
    dims.map((d) => of[d]),
    sql` union all `,
  );
}

type LiveRow = { day: string; dim: string; key: string | null; events: number; visitors: number };

/**
 * One website's figures by day from `since` (a UTC midnight) on, as rows of (day, dim, key, events,
 * visitors): the rolled-up days from analytics_daily, the rest aggregated from the events. A
 * subquery for the summaries to group as they need. How far the rollup has gone is read first, so the
 * events are read from a known time on (an index range the planner can size); the events not rolled
 * up yet (today's) are then aggregated once, here, and the subquery carries their few rows as a
 * parameter, so the summaries' several queries do not each read the day's events again. `dims`: the
 * figures the caller reads (each is one more read of the day's events), all of them by default.
 */
export async function dailyFigures(
  db: Db,
  websiteId: string,
  since: Date,
  dims: readonly Dim[] = ALL_DIMS,
): Promise<SQL> {
  const [state] = await db
    .select({ through: analyticsRollup.through })
    .from(analyticsRollup)
    .where(eq(analyticsRollup.id, 1));
  const through = state?.through ?? NEVER;
  const liveFrom = new Date(Math.max(since.getTime(), Date.parse(`${through}T00:00:00Z`) + DAY_MS));
  const live = sql`website_id = ${websiteId} and occurred_at >= ${liveFrom.toISOString()}::timestamptz`;
  const liveRows = (await db.execute(
    sql`select to_char(day, 'YYYY-MM-DD') as day, dim, key, events, visitors
        from (${aggregated(live, dims)}) as live (website_id, day, dim, key, events, visitors)`,
  )) as unknown as { rows: LiveRow[] };
  return sql`(
    select day, dim, key, events, visitors from analytics_daily
      where website_id = ${websiteId} and day >= ${utcDayOf(since)}::date and day <= ${through}::date
        and dim in (${sql.join(
          dims.map((d) => sql`${d}`),
          sql`, `,
        )})
    union all
    select day, dim, key, events, visitors
      from jsonb_to_recordset(${JSON.stringify(liveRows.rows)}::jsonb)
        as live (day date, dim text, key text, events int, visitors int)
  ) as figures`;
}

/**
 * Rolls up the days that are over and not yet rolled, oldest first, one day per transaction, at most
 * `maxDays` in one run (what is left, the next run takes); returns how many days it rolled. The state
 * row is locked for each day, so two processes never roll one day twice.
 */
export async function rollUpAnalytics(db: Db, now: Date, maxDays = 31): Promise<number> {
  const lastOver = utcDayOf(new Date(startOfUtcDay(now).getTime() - DAY_MS));
  let rolled = 0;
  for (let i = 0; i < maxDays; i++) {
    const did = await transaction(db, ROLLUP_ONLY, async (tx) => {
      await tx.insert(analyticsRollup).values({ id: 1, through: NEVER }).onConflictDoNothing();
      const [state] = await tx.select().from(analyticsRollup).where(eq(analyticsRollup.id, 1)).for('update');
      let next: string;
      if (state!.through === NEVER) {
        const first = (await tx.execute(
          sql`select to_char(min(occurred_at) at time zone 'UTC', 'YYYY-MM-DD') as day from analytics_events`,
        )) as unknown as { rows: Array<{ day: string | null }> };
        // No event yet: nothing to roll, and nothing is marked done (a first event starts it).
        if (!first.rows[0]?.day) return false;
        next = first.rows[0].day;
      } else next = utcDayOf(new Date(Date.parse(`${state!.through}T00:00:00Z`) + DAY_MS));
      if (next > lastOver) return false;
      const start = `${next}T00:00:00.000Z`;
      const end = new Date(Date.parse(start) + DAY_MS).toISOString();
      await tx.execute(sql`insert into analytics_daily (website_id, day, dim, key, events, visitors)
        ${aggregated(sql`occurred_at >= ${start}::timestamptz and occurred_at < ${end}::timestamptz`)}`);
      await tx.update(analyticsRollup).set({ through: next }).where(eq(analyticsRollup.id, 1));
      return true;
    });
    if (!did) break;
    rolled += 1;
  }
  return rolled;
}

/** Deletes rolled-up days older than the retention (with the events they came from). */
export async function purgeAnalyticsDaily(db: Db, now: Date, days: number): Promise<number> {
  const cutoff = utcDayOf(new Date(now.getTime() - days * DAY_MS));
  return deleteInBatches(db, analyticsDaily, lt(analyticsDaily.day, cutoff));
}
