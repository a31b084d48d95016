// Analytics summary over the last `days` days: totals (assistants' calls apart), daily page views and
// top pages (visitor-chosen paths fenced, src/domain/untrusted.ts). The owner's analytics page reads
// the same summary, so its figures and the tool's agree, plus what the tool leaves out
// (`ownerAnalytics`). A fixed number of queries, aggregated in SQL, whatever the traffic.
import { and, count, countDistinct, desc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import { analyticsEvents } from '../../db/schema.js';
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

/** What get_analytics_summary answers: three queries, aggregated in SQL, whatever the traffic. */
export async function analyticsSummary(ctx: DirectSiteCtx, days: number) {
  const since = new Date(ctx.now.getTime() - days * DAY_MS);
  const e = analyticsEvents;
  const inRange = and(eq(e.websiteId, ctx.website.id), gte(e.occurredAt, since));
  const byKind = await ctx.db
    .select({ kind: e.kind, n: count(), visitors: countDistinct(e.visitorHash) })
    .from(e)
    .where(inRange)
    .groupBy(e.kind);
  const top = await ctx.db
    .select({ path: e.path, views: count() })
    .from(e)
    .where(and(inRange, eq(e.kind, 'pageview')))
    .groupBy(e.path)
    .orderBy(desc(count()))
    .limit(5);
  const daily = await ctx.db
    .select({ day: utcDay, views: count() })
    .from(e)
    .where(and(inRange, eq(e.kind, 'pageview')))
    .groupBy(utcDay)
    .orderBy(utcDay);
  const get = (k: string) => byKind.find((r) => r.kind === k);
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

const utcDay = sql<string>`to_char(${analyticsEvents.occurredAt} at time zone 'UTC', 'YYYY-MM-DD')`;

/**
 * The owner's analytics page: the tool's summary (so the two agree) and what the tool leaves out,
 * every day of the range with its visits, where visitors came from, and the share of visits made
 * through a visitor's AI assistant. Two queries more; the tool does not pay for them.
 */
export async function ownerAnalytics(ctx: DirectSiteCtx, days: number) {
  const summary = await analyticsSummary(ctx, days);
  const since = new Date(summary.since);
  const e = analyticsEvents;
  const inRange = and(eq(e.websiteId, ctx.website.id), gte(e.occurredAt, since));
  // A visitor hash is salted per UTC day, so distinct hashes of one day are that day's visits.
  const perDay = await ctx.db
    .select({
      day: utcDay,
      views: sql<number>`count(*) filter (where ${e.kind} = 'pageview')`,
      visits: sql<number>`count(distinct ${e.visitorHash}) filter (where ${e.kind} = 'pageview')`,
      assistantVisits: sql<number>`count(distinct ${e.visitorHash}) filter (where ${e.kind} = 'assistant')`,
      anyVisits: sql<number>`count(distinct ${e.visitorHash}) filter (where ${e.kind} in ('pageview', 'assistant'))`,
    })
    .from(e)
    .where(inRange)
    .groupBy(utcDay)
    .orderBy(utcDay);
  const referrers = await ctx.db
    .select({ host: e.referrer, visits: countDistinct(e.visitorHash) })
    .from(e)
    .where(and(inRange, eq(e.kind, 'pageview'), isNotNull(e.referrer)))
    .groupBy(e.referrer)
    .orderBy(desc(countDistinct(e.visitorHash)), e.referrer)
    .limit(10);
  const found = new Map(perDay.map((d) => [d.day, d]));
  const series = daysBetween(since, ctx.now).map((d) => {
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
