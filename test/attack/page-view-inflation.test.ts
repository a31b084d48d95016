// Inflating a published site's figures: one address reloading a page 2,000 times with a new user
// agent each time once added 2,000 page views and 2,000 "unique visitors". Now an address (an IPv6
// /64) counts at most VIEW_LIMIT_PER_ADDRESS views of a website an hour and is one visitor a day
// whatever its user agent; the views past the cap are served and write nothing. Distinct addresses
// still count. get_analytics_summary reports exactly what was stored. Analytics events are deleted
// after ANALYTICS_RETENTION_DAYS by the retention sweep, which follows the clock.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../../src/domain/analytics/record.js';
import { visitorKeyCache } from '../../src/domain/analytics/visitor-keys.js';
import { analyticsEvents } from '../../src/db/schema.js';
import { runOp } from '../../src/ops/admin-ops.js';
import { type TestServer, runJob, startTestServer } from '../helpers/server.js';
import { testClock } from '../plans/rail.js';
import { BROWSER_UA, crowd } from '../visitors/visitor.js';

const CAP = 60; // the default VIEW_LIMIT_PER_ADDRESS
const DAY = 86_400_000;
let s: TestServer;
let proxied: TestServer;
const time = testClock();
const people = crowd('127.0.47');
beforeAll(async () => {
  s = await startTestServer({ seed: false, clock: time.clock });
  // Behind a trusted proxy the address comes from X-Forwarded-For: the way to send IPv6 here.
  proxied = await startTestServer({
    seed: false,
    clock: time.clock,
    env: { TRUST_PROXY: '1', VIEW_LIMIT_PER_ADDRESS: '5' },
  });
});
afterAll(async () => {
  await people.close();
  await proxied?.close();
  await s?.close();
});
const db = () => s.sg.deps.services.db;

async function figures(server: TestServer, token: string) {
  const r = await server.call(token, 'get_analytics_summary', { days: 1 });
  expect(r.ok).toBe(true);
  return r.data as { pageViews: number; uniqueVisitors: number; topPages: Array<{ views: number }> };
}

async function storedViews(websiteId: string): Promise<number> {
  const [r] = await db()
    .select({ n: count() })
    .from(analyticsEvents)
    .where(and(eq(analyticsEvents.websiteId, websiteId), eq(analyticsEvents.kind, 'pageview')));
  return Number(r?.n ?? 0);
}

const ua = (i: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (i % 40)}.0.${i}.0 Safari/537.36`;

describe('page views from one address', () => {
  it('2,000 views with rotating user agents count as the cap and one visitor; all pages are served', async () => {
    const d = await s.seed();
    const base = `${s.url}/sites/${d.websites.main}`;
    const before = await figures(s, d.tokens.all);
    const stored = await storedViews(d.websites.main);
    const v = people.at('127.0.47.200');
    const statuses = new Map<number, number>();
    // Eight at a time, as a script would; bounded by the loop.
    for (let i = 0; i < 2_000; i += 8) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, (_, j) =>
          v.get(`${base}/${(i + j) % 2 ? 'about' : ''}`, { 'user-agent': ua(i + j) }),
        ),
      );
      for (const r of batch) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    expect(statuses).toEqual(new Map([[200, 2_000]]));
    const after = await figures(s, d.tokens.all);
    expect(after.pageViews - before.pageViews).toBe(CAP);
    expect(after.uniqueVisitors - before.uniqueVisitors).toBe(1);
    // Nothing past the cap was written.
    expect((await storedViews(d.websites.main)) - stored).toBe(CAP);
  }, 300_000);

  it('views from distinct addresses still count, each address one visitor', async () => {
    const d = await s.seed();
    const base = `${s.url}/sites/${d.websites.main}`;
    const before = await figures(s, d.tokens.all);
    for (let a = 0; a < 5; a++) {
      const v = people.next();
      for (let i = 0; i < 3; i++)
        expect((await v.get(`${base}/`, { 'user-agent': ua(a * 10 + i) })).status).toBe(200);
    }
    const after = await figures(s, d.tokens.all);
    expect(after.pageViews - before.pageViews).toBe(15);
    expect(after.uniqueVisitors - before.uniqueVisitors).toBe(5);
  });

  it('an IPv6 /64 is one sender: one visitor and one allowance; another /64 counts apart', async () => {
    const d = await proxied.seed();
    const base = `${proxied.url}/sites/${d.websites.main}`;
    const before = await figures(proxied, d.tokens.all);
    const v = people.at('127.0.47.201', BROWSER_UA);
    for (let i = 0; i < 12; i++) {
      const r = await v.get(`${base}/`, {
        'x-forwarded-for': `2001:db8:47:1::${(i + 1).toString(16)}`,
        'user-agent': ua(i),
      });
      expect(r.status).toBe(200);
    }
    const mid = await figures(proxied, d.tokens.all);
    expect(mid.pageViews - before.pageViews).toBe(5);
    expect(mid.uniqueVisitors - before.uniqueVisitors).toBe(1);
    expect((await v.get(`${base}/`, { 'x-forwarded-for': '2001:db8:47:2::1' })).status).toBe(200);
    const after = await figures(proxied, d.tokens.all);
    expect(after.pageViews - mid.pageViews).toBe(1);
    expect(after.uniqueVisitors - mid.uniqueVisitors).toBe(1);
  });
});

describe('retention', () => {
  it('the sweep deletes events older than ANALYTICS_RETENTION_DAYS and keeps newer ones; it follows the clock', async () => {
    const d = await s.seed();
    const site = d.websites.events;
    const now = time.clock();
    const keys = visitorKeyCache(db());
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
    const visitor = { address: '127.0.47.202', userAgent: BROWSER_UA };
    await recordEvents(
      db(),
      keys,
      [500, 401, 399, 1].map((ago) => ({
        websiteId: site,
        kind: 'pageview' as const,
        path: `/aged-${ago}`,
        visitor,
        at: at(ago),
      })),
      now,
    );
    const paths = async () =>
      (
        await db()
          .select({ path: analyticsEvents.path })
          .from(analyticsEvents)
          .where(eq(analyticsEvents.websiteId, site))
      )
        .map((r) => r.path)
        .filter((p) => p.startsWith('/aged-'))
        .sort();
    expect(await paths()).toEqual(['/aged-1', '/aged-399', '/aged-401', '/aged-500']);
    expect(await runJob(s, 'analytics')).toBeGreaterThanOrEqual(2);
    expect(await paths()).toEqual(['/aged-1', '/aged-399']);

    // Two days on, the 399-day-old event is past the line; yesterday's is not.
    time.advance(2 * DAY);
    await runJob(s, 'analytics');
    expect(await paths()).toEqual(['/aged-1']);
    // The demo's month of visits is well inside the window and stays (the summary still counts it).
    const month = await s.call(d.tokens.all, 'get_analytics_summary', { days: 30 });
    expect(month.data!.pageViews).toBeGreaterThan(150);

    // `sitegate admin retention` runs the same sweep with the configured number of days.
    const ran = (await runOp(
      'retention.run',
      { database: s.sg.database, config: { dataDir: '.', analyticsRetentionDays: 2 }, now: time.clock() },
      {},
    )) as Record<string, number | null>;
    expect(ran.analytics).toBeGreaterThan(0);
    expect(await paths()).toEqual([]);
    const none = await s.call(d.tokens.all, 'get_analytics_summary', { days: 30 });
    expect(none.data!.pageViews).toBeLessThan(month.data!.pageViews);
  });
});
