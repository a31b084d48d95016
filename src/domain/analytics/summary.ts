// Analytics summary over the last `days` days: totals (assistants' calls apart), daily page views and
// top pages (visitor-chosen paths fenced, src/domain/untrusted.ts). The owner's analytics page reads
// the same summary, so its figures and the tool's agree, plus what the tool leaves out
// (`ownerAnalytics`). A fixed number of queries, aggregated in SQL over the daily figures (rollup.ts),
// whatever the traffic.
import { type SQL, sql } from 'drizzle-orm';
import { type Dim, dailyFigures, startOfUtcDay } from './rollup.js';
import type { DirectSiteCtx } from '../context.js';
import { untrusted } from '../untrusted.js';

const DAY_MS = 86_400_000;

/** The UTC days from `since` to `now`, oldest first, as YYYY-MM-DD (the visitor salt's days too). */
function daysBetween(since: Date, now: Date): string[] {
  const out: string[] = [];
  const start = Date.UTC(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate());
  for (let t = start; t <= now.getTime(); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The figures summaryOf reads. */
const SUMMARY_DIMS: readonly Dim[] = ['kind', 'path'];

/**
 * What get_analytics_summary answers: three queries over the daily figures (rollup.ts), and its state.
 * It reads the figures by kind and by page alone (SUMMARY_DIMS), so today's events are read twice, not
 * four times.
 */
export async function analyticsSummary(ctx: DirectSiteCtx, days: number) {
  return summaryOf(ctx, days, await figuresOf(ctx, days, SUMMARY_DIMS));
}

/** Whole UTC days: the rolled-up days and today's events, never a day cut in the middle. */
const sinceOf = (ctx: DirectSiteCtx, days: number) =>
  startOfUtcDay(new Date(ctx.now.getTime() - days * DAY_MS));

const figuresOf = (ctx: DirectSiteCtx, days: number, dims?: readonly Dim[]) =>
  dailyFigures(ctx.db, ctx.website.id, sinceOf(ctx, days), dims);

async function summaryOf(ctx: DirectSiteCtx, days: number, figures: SQL) {
  const since = sinceOf(ctx, days);
  const byKind = await rows<{ key: string; n: number; visitors: number }>(
    ctx.db,
    sql`select key, sum(events)::int as n, sum(visitors)::int as visitors from ${figures}
        where dim = 'kind' group by key`,
  );
  const top = await rows<{ path: string; views: number }>(
    ctx.db,
    sql`select key as path, sum(events)::int as views from ${figures}
        where dim = 'path' group by key order by 2 desc, key limit 5`,
  );
  const daily = await rows<{ day: string; views: number }>(
    ctx.db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, sum(events)::int as views from ${figures}
        where dim = 'kind' and key = 'pageview' group by day order by day`,
  );
  const get = (k: string) => byKind.find((r) => r.key === k);
  return {
    days,
    since: since.toISOString(),
    pageViews: Number(get('pageview')?.n ?? 0),
    uniqueVisitors: Number(get('pageview')?.visitors ?? 0),
    formSubmissions: Number(get('form_submit')?.n ?? 0),
    bookings: Number(get('booking')?.n ?? 0),
    // Tool calls of visitors' AI assistants on the site's MCP endpoint: never page views.
    assistantCalls: Number(get('assistant')?.n ?? 0),
    // The path is the one the visitor asked for: theirs to choose, so fenced like their words.
    topPages: top.map((t) => ({ path: untrusted(t.path), views: Number(t.views) })),
    daily: daily.map((d) => ({ day: d.day, views: Number(d.views) })),
  };
}

async function rows<R>(db: DirectSiteCtx['db'], query: SQL): Promise<R[]> {
  return ((await db.execute(query)) as unknown as { rows: R[] }).rows;
}

/**
 * The owner's analytics page: the tool's summary (so the two agree) and what the tool leaves out,
 * every day of the range with its visits, where visitors came from, and the share of visits made
 * through a visitor's AI assistant. Two queries more on the same figures; the tool does not pay for them.
 */
export async function ownerAnalytics(ctx: DirectSiteCtx, days: number) {
  const figures = await figuresOf(ctx, days);
  const summary = await summaryOf(ctx, days, figures);
  // A visitor hash is salted per UTC day, so a day's distinct hashes are that day's visits.
  const perDay = await rows<{
    day: string;
    views: number;
    visits: number;
    assistantVisits: number;
    anyVisits: number;
  }>(
    ctx.db,
    sql`select to_char(day, 'YYYY-MM-DD') as day,
          coalesce(sum(events) filter (where dim = 'kind' and key = 'pageview'), 0)::int as views,
          coalesce(sum(visitors) filter (where dim = 'kind' and key = 'pageview'), 0)::int as visits,
          coalesce(sum(visitors) filter (where dim = 'kind' and key = 'assistant'), 0)::int as "assistantVisits",
          coalesce(sum(visitors) filter (where dim = 'visit'), 0)::int as "anyVisits"
        from ${figures} group by day order by day`,
  );
  const referrers = await rows<{ host: string; visits: number }>(
    ctx.db,
    sql`select key as host, sum(visitors)::int as visits from ${figures}
        where dim = 'referrer' group by key order by 2 desc, key limit 10`,
  );
  const found = new Map(perDay.map((d) => [d.day, d]));
  const series = daysBetween(new Date(summary.since), ctx.now).map((d) => {
    const row = found.get(d);
    return {
      day: d,
      views: Number(row?.views ?? 0),
      visits: Number(row?.visits ?? 0),
      assistantVisits: Number(row?.assistantVisits ?? 0),
      anyVisits: Number(row?.anyVisits ?? 0),
    };
  });
  const sum = (k: 'assistantVisits' | 'anyVisits') => series.reduce((n, d) => n + d[k], 0);
  return {
    ...summary,
    /** Every day of the range (none left out), for a chart. */
    series: series.map((d) => ({ day: d.day, views: d.views, visits: d.visits })),
    /** Other sites' hosts visitors came from (a host is the sender's to choose: fenced). */
    referrers: referrers.map((r) => ({ host: untrusted(r.host ?? ''), visits: Number(r.visits) })),
    /** Visitor-days with any visit, and those through a visitor's assistant. */
    visits: { all: sum('anyVisits'), viaAssistant: sum('assistantVisits') },
  };
}
