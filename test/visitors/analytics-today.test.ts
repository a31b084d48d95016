// Today's figures so far (analytics_today, rollUpToday): a summary then reads only the events since it
// was built, and counts a visitor already in it once. Every figure equals the one computed from all of
// today's events: visitors seen before and after the build, on the same page and on another, through
// an assistant, events without a visitor; after midnight; and once the day itself is rolled up.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { analyticsDaily, analyticsEvents, analyticsRollup, analyticsToday } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { seedDemo } from '../../src/demo/seed.js';
import type { DirectSiteCtx } from '../../src/domain/context.js';
import { rollUpAnalytics, rollUpToday } from '../../src/domain/analytics/rollup.js';
import { analyticsSummary, ownerAnalytics } from '../../src/domain/analytics/summary.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';

const NOW = new Date('2026-11-20T15:30:00.000Z');
const at = (iso: string) => new Date(`${iso}Z`);
let database: Database;
let demo: Demo;

// The rollup state is the database's: this file starts from none and leaves none for the next file.
const reset = async () => {
  await database.db.delete(analyticsToday);
  await database.db.delete(analyticsDaily);
  await database.db.delete(analyticsRollup);
};

beforeAll(async () => {
  database = await testDatabase();
  await reset();
  demo = await seedDemo(database.db, { tag: uniqueTag() });
  const event = (
    iso: string,
    kind: string,
    visitorHash: string | null,
    path = '/',
    referrer: string | null = null,
  ): typeof analyticsEvents.$inferInsert => ({
    websiteId: demo.websites.main,
    kind,
    path,
    referrer,
    visitorHash,
    occurredAt: at(iso),
  });
  // The demo's own sample events are dated from the real clock: this site's events are the ones below.
  await database.db.delete(analyticsEvents).where(eq(analyticsEvents.websiteId, demo.websites.main));
  await database.db.insert(analyticsEvents).values([
    // Yesterday: rolled up by the daily rollup.
    event('2026-11-19T10:00:00', 'pageview', 'y1', '/'),
    event('2026-11-19T11:00:00', 'pageview', 'y2', '/menu', 'search.example'),
    // Today, before noon (the build below) and after it.
    event('2026-11-20T08:00:00', 'pageview', 'v1', '/'),
    event('2026-11-20T08:05:00', 'pageview', 'v1', '/menu', 'search.example'),
    event('2026-11-20T09:00:00', 'pageview', 'v2', '/about'),
    event('2026-11-20T09:30:00', 'assistant', 'a1', '/_api/mcp'),
    event('2026-11-20T10:00:00', 'form_submit', null, '/contact'),
    event('2026-11-20T13:00:00', 'pageview', 'v1', '/'), // again, same page
    event('2026-11-20T13:05:00', 'pageview', 'v2', '/menu', 'search.example'), // again, another page
    event('2026-11-20T13:10:00', 'pageview', 'v3', '/about', 'news.example'), // new
    event('2026-11-20T14:00:00', 'assistant', 'a1', '/_api/mcp'), // again
    event('2026-11-20T14:30:00', 'pageview', 'a1', '/'), // the assistant's visitor, now a page view
    event('2026-11-20T15:00:00', 'form_submit', null, '/contact'),
    // Tomorrow, after midnight: a visitor of today's hash space is another one tomorrow.
    event('2026-11-21T00:30:00', 'pageview', 'v1', '/'),
    event('2026-11-21T01:00:00', 'pageview', 't1', '/menu'),
  ]);
  // Every day up to yesterday (of this database's events, whoever's) is rolled up.
  await rollUpAnalytics(database.db, NOW, 10_000);
  expect(await rolledThrough()).toBe('2026-11-19');
});

const rolledThrough = async () =>
  (await database.db.select().from(analyticsRollup).where(eq(analyticsRollup.id, 1)))[0]?.through;

afterAll(reset);

const ctx = (now: Date): DirectSiteCtx =>
  ({ db: database.db, now, website: { id: demo.websites.main, companyId: demo.companyId } }) as DirectSiteCtx;

/** The figures as a summary gives them, and as it gives them from all of the day's events. */
async function bothWays(now: Date) {
  const figures = async () => ({
    owner: await ownerAnalytics(ctx(now), 30),
    tool: await analyticsSummary(ctx(now), 7),
  });
  const provisional = await figures();
  const [state] = await database.db.select().from(analyticsRollup).where(eq(analyticsRollup.id, 1));
  await database.db
    .update(analyticsRollup)
    .set({ provisionalThrough: null })
    .where(eq(analyticsRollup.id, 1));
  const fromEvents = await figures();
  await database.db
    .update(analyticsRollup)
    .set({ provisionalThrough: state!.provisionalThrough })
    .where(eq(analyticsRollup.id, 1));
  return { provisional, fromEvents };
}

it('gives the figures of all of the day’s events, reading those since the build', async () => {
  const built = await rollUpToday(database.db, at('2026-11-20T12:00:00'));
  expect(built).toBeGreaterThan(0);
  const { provisional, fromEvents } = await bothWays(NOW);
  expect(provisional).toEqual(fromEvents);
  const today = fromEvents.owner.series.at(-1)!;
  // 7 page views by v1, v2, v3 and a1 today.
  expect(today).toEqual({ day: '2026-11-20', views: 7, visits: 4 });
  // Visitor-days: y1 and y2, then v1, v2, v3 and a1 (once, though through an assistant and a page);
  // the tool counts the next day's two as well (the events after the clock's now are read too), the
  // owner's page its days up to now.
  expect(fromEvents.tool.uniqueVisitors).toBe(8);
  expect(fromEvents.owner.visits).toEqual({ all: 6, viaAssistant: 1 });

  // The summary reads the built figures, not the events before the build.
  const bump = (n: number) =>
    database.db.execute(
      sql`update analytics_today set events = events + ${n} where website_id = ${demo.websites.main}
          and day = '2026-11-20'::date and dim = 'kind' and key = 'pageview'`,
    );
  await bump(1000);
  expect((await analyticsSummary(ctx(NOW), 7)).pageViews).toBe(fromEvents.tool.pageViews + 1000);
  await bump(-1000);
});

it('stays exact after midnight and once the day is rolled up, counting no visitor twice', async () => {
  const later = new Date('2026-11-21T02:00:00.000Z');
  const before = await bothWays(later);
  expect(before.provisional).toEqual(before.fromEvents);
  expect(before.fromEvents.owner.series.at(-1)).toEqual({ day: '2026-11-21', views: 2, visits: 2 });

  // The day that ended is rolled up; analytics_today still holds it, and is not read for it.
  expect(await rollUpAnalytics(database.db, later, 10)).toBe(1);
  expect(await rolledThrough()).toBe('2026-11-20');
  const after = await bothWays(later);
  expect(after.provisional).toEqual(before.fromEvents);
  expect(after.fromEvents).toEqual(before.fromEvents);

  // Built again after midnight: today's figures from its own start.
  await rollUpToday(database.db, later);
  const rebuilt = await bothWays(later);
  expect(rebuilt.provisional).toEqual(before.fromEvents);
});
