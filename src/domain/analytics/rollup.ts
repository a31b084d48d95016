// Analytics by UTC day: a day that is over is rolled up once into analytics_daily (per website, the
// events and distinct visitors of each kind, page, referrer and of all visits), so a summary over 30
// or 90 days reads a few rows per day instead of every event. The day still running, and any day the
// rollup has not reached yet, is read from the events themselves: a summary is right whether or not
// the job has run. A visitor's hash is salted per UTC day (R-VIS-3), so the visitors of different
// days are different hashes and add up exactly.
import { type SQL, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { analyticsDaily, analyticsRollup, analyticsToday } from '../../db/schema.js';
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

/** The events of a figure's key as another event `p` of the same visitor would count under it. */
const SAME_KEY: Record<Dim, SQL> = {
  kind: sql`p.kind = e.kind`,
  path: sql`p.kind = 'pageview' and p.path = e.path`,
  referrer: sql`p.kind = 'pageview' and p.referrer = e.referrer`,
  visit: sql`p.kind in ('pageview', 'assistant')`,
};

/**
 * The rows of analytics_daily for the events `where` selects (of analytics_events as `e`), by website
 * and UTC day: every figure, or those of `dims` alone (each is one more read of the events). With
 * `countedBefore` (an instant), a visitor who already has an event under the same figure earlier that
 * day and before that instant is not counted again: those are in analytics_today's visitors.
 */
function aggregated(where: SQL, dims: readonly Dim[] = ALL_DIMS, countedBefore?: Date): SQL {
  const day = sql`(e.occurred_at at time zone 'UTC')::date`;
  const figures = (dim: Dim) => {
    if (!countedBefore) return sql`count(*)::int, count(distinct e.visitor_hash)::int`;
    // Probed through analytics_visitor_idx: the visitor's own events of that day, a handful.
    const seen = sql`exists (select 1 from analytics_events p
      where p.website_id = e.website_id and p.visitor_hash = e.visitor_hash
        and p.occurred_at >= (${day})::timestamp at time zone 'UTC'
        and p.occurred_at < ${countedBefore.toISOString()}::timestamptz and ${SAME_KEY[dim]})`;
    return sql`count(*)::int, (count(distinct e.visitor_hash) filter (where not ${seen}))::int`;
  };
  const of: Record<Dim, SQL> = {
    kind: sql`select e.website_id, ${day}, 'kind', e.kind, ${figures('kind')} from analytics_events e
      where ${where} group by 1, 2, 4`,
    path: sql`select e.website_id, ${day}, 'path', e.path, ${figures('path')} from analytics_events e
      where ${where} and e.kind = 'pageview' group by 1, 2, 4`,
    referrer: sql`select e.website_id, ${day}, 'referrer', e.referrer, ${figures('referrer')}
      from analytics_events e
      where ${where} and e.kind = 'pageview' and e.referrer is not null group by 1, 2, 4`,
    visit: sql`select e.website_id, ${day}, 'visit', 'any', ${figures('visit')} from analytics_events e
      where ${where} and e.kind in ('pageview', 'assistant') group by 1, 2`,
  };
  return sql.join(
    dims.map((d) => of[d]),
    sql` union all `,
  );
}

/**
 * A website's figures from its events since `from`, as (day, dim, key, events, visitors), visitors
 * already counted before `countedBefore` left out (see aggregated); probed through analytics_visitor_idx
 * (test/db/list-plans.test.ts).
 */
export function liveFigures(websiteId: string, from: Date, dims: readonly Dim[], countedBefore?: Date): SQL {
  const live = sql`e.website_id = ${websiteId} and e.occurred_at >= ${from.toISOString()}::timestamptz`;
  return sql`select to_char(day, 'YYYY-MM-DD') as day, dim, key, events, visitors
    from (${aggregated(live, dims, countedBefore)}) as live (website_id, day, dim, key, events, visitors)`;
}

type LiveRow = { day: string; dim: string; key: string | null; events: number; visitors: number };

/**
 * One website's figures by day from `since` (a UTC midnight) on, as rows of (day, dim, key, events,
 * visitors): the rolled-up days from analytics_daily, the days after them from analytics_today up to
 * where it was built, and the events since then. A subquery for the summaries to group as they need.
 * How far the rollups have gone is read first, so the events are read from a known time on (an index
 * range the planner can size): a minute's events when the provisional rollup runs, the whole of the
 * days not rolled up otherwise. They are aggregated once, here, and the subquery carries their few rows
 * as a parameter, so the summaries' several queries do not each read them again. A visitor counted in
 * analytics_today is not counted again for the same figure and day. `dims`: the figures the caller
 * reads (each is one more read of the events), all of them by default.
 */
export async function dailyFigures(
  db: Db,
  websiteId: string,
  since: Date,
  dims: readonly Dim[] = ALL_DIMS,
): Promise<SQL> {
  const [state] = await db
    .select({ through: analyticsRollup.through, provisional: analyticsRollup.provisionalThrough })
    .from(analyticsRollup)
    .where(eq(analyticsRollup.id, 1));
  const through = state?.through ?? NEVER;
  const provisional = state?.provisional ?? null;
  const afterRolled = Math.max(since.getTime(), Date.parse(`${through}T00:00:00Z`) + DAY_MS);
  const liveFrom = new Date(Math.max(afterRolled, provisional?.getTime() ?? 0));
  const liveRows = (await db.execute(
    liveFigures(websiteId, liveFrom, dims, provisional ?? undefined),
  )) as unknown as { rows: LiveRow[] };
  const ofDims = sql.join(
    dims.map((d) => sql`${d}`),
    sql`, `,
  );
  return sql`(
    select day, dim, key, events, visitors from analytics_daily
      where website_id = ${websiteId} and day >= ${utcDayOf(since)}::date and day <= ${through}::date
        and dim in (${ofDims})
    union all
    select day, dim, key, events, visitors from analytics_today
      where ${provisional !== null} and website_id = ${websiteId} and day >= ${utcDayOf(since)}::date
        and day > ${through}::date and dim in (${ofDims})
    union all
    select day, dim, key, events, visitors
      from jsonb_to_recordset(${JSON.stringify(liveRows.rows)}::jsonb)
        as live (day date, dim text, key text, events int, visitors int)
  ) as figures`;
}

/**
 * Builds analytics_today anew: the figures of the days after the last rolled-up one, from their start
 * up to `now`, for every website, and records how far it goes. The state row is locked, so two
 * processes build it one after the other. Returns how many rows it holds.
 */
export async function rollUpToday(db: Db, now: Date): Promise<number> {
  return transaction(db, ROLLUP_ONLY, async (tx) => {
    await tx.insert(analyticsRollup).values({ id: 1, through: NEVER }).onConflictDoNothing();
    const [state] = await tx.select().from(analyticsRollup).where(eq(analyticsRollup.id, 1)).for('update');
    // Before any day is rolled up (a new service), the days not rolled are those of every event.
    const from = new Date(Date.parse(`${state!.through}T00:00:00Z`) + DAY_MS).toISOString();
    await tx.delete(analyticsToday);
    const result =
      (await tx.execute(sql`insert into analytics_today (website_id, day, dim, key, events, visitors)
      ${aggregated(sql`e.occurred_at >= ${from}::timestamptz and e.occurred_at < ${now.toISOString()}::timestamptz`)}`)) as unknown as {
        rowCount?: number | null;
        affectedRows?: number;
      };
    await tx.update(analyticsRollup).set({ provisionalThrough: now }).where(eq(analyticsRollup.id, 1));
    return Number(result.rowCount ?? result.affectedRows ?? 0);
  });
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
        ${aggregated(sql`e.occurred_at >= ${start}::timestamptz and e.occurred_at < ${end}::timestamptz`)}`);
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
