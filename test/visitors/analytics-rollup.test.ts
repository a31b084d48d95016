// The daily analytics rollup changes no figure: 40 days of page views, assistant calls, form events and
// referrers (several visitors a day, salted per day as the site hashes them) give the same summary and
// the same owner page figures before any day is rolled up, after the rollup, and after a day more of
// events; a second run rolls nothing twice; two runs at once roll each day once; the retention purge
// removes old rolled days with their events.
import { count, eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { analyticsDaily, analyticsEvents, analyticsRollup } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { seedDemo } from '../../src/demo/seed.js';
import type { DirectSiteCtx } from '../../src/domain/context.js';
import { purgeAnalyticsDaily, rollUpAnalytics } from '../../src/domain/analytics/rollup.js';
import { ownerAnalytics } from '../../src/domain/analytics/summary.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-20T15:30:00.000Z');
let database: Database;
let demo: Demo;

beforeAll(async () => {
  database = await testDatabase();
  // Another test of this database may have rolled days of its own: this file's days start afresh.
  await database.db.delete(analyticsDaily);
  await database.db.delete(analyticsRollup);
  demo = await seedDemo(database.db, { tag: uniqueTag() });
  const rows: Array<typeof analyticsEvents.$inferInsert> = [];
  for (let d = 0; d < 40; d++) {
    const day = new Date(NOW.getTime() - d * DAY);
    for (let v = 0; v < 1 + (d % 4); v++) {
      const visitor = `hash-${d}-${v}`;
      const at = (h: number) =>
        new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), h));
      rows.push(
        {
          websiteId: demo.websites.main,
          kind: 'pageview',
          path: '/',
          visitorHash: visitor,
          occurredAt: at(9),
        },
        {
          websiteId: demo.websites.main,
          kind: 'pageview',
          path: v % 2 ? '/about' : '/menu',
          referrer: v % 2 ? 'search.example' : null,
          visitorHash: visitor,
          occurredAt: at(10 + v),
        },
      );
      if (v === 1)
        rows.push({
          websiteId: demo.websites.main,
          kind: 'assistant',
          path: '/_api/mcp',
          visitorHash: `a-${d}`,
          occurredAt: at(12),
        });
      if (d % 5 === 0)
        rows.push({
          websiteId: demo.websites.main,
          kind: 'form_submit',
          path: '/contact',
          occurredAt: at(13),
        });
    }
  }
  await database.db.insert(analyticsEvents).values(rows);
});

const ctx = (now: Date): DirectSiteCtx =>
  ({ db: database.db, now, website: { id: demo.websites.main, companyId: demo.companyId } }) as DirectSiteCtx;

it('gives the same figures before and after the rollup, and rolls each day once', async () => {
  const before30 = await ownerAnalytics(ctx(NOW), 30);
  const before90 = await ownerAnalytics(ctx(NOW), 90);
  expect(before30.pageViews).toBeGreaterThan(100);
  expect(before30.referrers.length).toBe(1);
  expect(before30.visits.viaAssistant).toBeGreaterThan(0);

  const rolled = await rollUpAnalytics(database.db, NOW, 100);
  // Every day from the first event's to yesterday; today is still running.
  expect(rolled).toBe(39);
  const [rowsN] = await database.db.select({ n: count() }).from(analyticsDaily);
  expect(rowsN!.n).toBeGreaterThan(39 * 3);
  expect(await ownerAnalytics(ctx(NOW), 30)).toEqual(before30);
  expect(await ownerAnalytics(ctx(NOW), 90)).toEqual(before90);
  expect(await rollUpAnalytics(database.db, NOW, 100)).toBe(0);
  // The summaries read the rolled days from the rollup, not from the events.
  const yesterday = new Date(NOW.getTime() - DAY).toISOString().slice(0, 10);
  const bump = (n: number) =>
    database.db.execute(
      sql`update analytics_daily set events = events + ${n} where website_id = ${demo.websites.main}
          and day = ${yesterday}::date and dim = 'kind' and key = 'pageview'`,
    );
  await bump(1000);
  expect((await ownerAnalytics(ctx(NOW), 30)).pageViews).toBe(before30.pageViews + 1000);
  await bump(-1000);

  // A day later, with its own events: the day that ended is rolled once, even by two runs at once.
  const later = new Date(NOW.getTime() + DAY);
  await database.db.insert(analyticsEvents).values({
    websiteId: demo.websites.main,
    kind: 'pageview',
    path: '/later',
    visitorHash: 'hash-later',
    occurredAt: new Date(later.getTime() - 3_600_000),
  });
  const liveLater = await ownerAnalytics(ctx(later), 30);
  const both = await Promise.all([rollUpAnalytics(database.db, later), rollUpAnalytics(database.db, later)]);
  expect(both[0]! + both[1]!).toBe(1);
  expect(await ownerAnalytics(ctx(later), 30)).toEqual(liveLater);
  const dup = await database.db.execute(
    sql`select count(*)::int as n from (select website_id, day, dim, key from analytics_daily group by 1, 2, 3, 4 having count(*) > 1) d`,
  );
  expect((dup as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);

  // The purge removes rolled days older than the retention.
  const removed = await purgeAnalyticsDaily(database.db, NOW, 20);
  expect(removed).toBeGreaterThan(0);
  const [oldest] = await database.db
    .select({ day: sql<string>`min(${analyticsDaily.day})::text` })
    .from(analyticsDaily)
    .where(eq(analyticsDaily.websiteId, demo.websites.main));
  expect(oldest!.day >= new Date(NOW.getTime() - 20 * DAY).toISOString().slice(0, 10)).toBe(true);
});
