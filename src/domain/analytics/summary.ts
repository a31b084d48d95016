// Analytics summary over the last `days` days: totals (assistants' calls apart), daily page views and top pages (visitor-chosen
// paths fenced, src/domain/untrusted.ts).
import { and, count, countDistinct, desc, eq, gte, sql } from 'drizzle-orm';
import { analyticsEvents } from '../../db/schema.js';
import type { DirectSiteCtx } from '../context.js';
import { untrusted } from '../untrusted.js';

export async function analyticsSummary(ctx: DirectSiteCtx, days: number) {
  const since = new Date(ctx.now.getTime() - days * 86_400_000);
  const inRange = and(eq(analyticsEvents.websiteId, ctx.website.id), gte(analyticsEvents.occurredAt, since));
  const byKind = await ctx.db
    .select({ kind: analyticsEvents.kind, n: count(), visitors: countDistinct(analyticsEvents.visitorHash) })
    .from(analyticsEvents)
    .where(inRange)
    .groupBy(analyticsEvents.kind);
  const top = await ctx.db
    .select({ path: analyticsEvents.path, views: count() })
    .from(analyticsEvents)
    .where(and(inRange, eq(analyticsEvents.kind, 'pageview')))
    .groupBy(analyticsEvents.path)
    .orderBy(desc(count()))
    .limit(5);
  const day = sql<string>`to_char(${analyticsEvents.occurredAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const daily = await ctx.db
    .select({ day, views: count() })
    .from(analyticsEvents)
    .where(and(inRange, eq(analyticsEvents.kind, 'pageview')))
    .groupBy(day)
    .orderBy(day);
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
