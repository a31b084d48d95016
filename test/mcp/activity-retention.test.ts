// Activity retention (SPEC §8): entries older than 90 days are purged; newer ones stay.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { purgeActivity } from '../../src/domain/activity/recorder.js';
import { activity } from '../../src/db/schema.js';
import { type TestServer, runJob, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

it('purges entries older than 90 days and keeps the rest', async () => {
  const d = await s.seed();
  const db = s.sg.deps.services.db;
  const now = new Date();
  const day = 86_400_000;
  const line = (ageDays: number) => ({
    companyId: d.companyId,
    tool: 'list_pages',
    outcome: 'allowed',
    summary: `aged ${ageDays}`,
    createdAt: new Date(now.getTime() - ageDays * day),
  });
  await db.insert(activity).values([line(120), line(91), line(89), line(1)]);
  const purged = await purgeActivity(db, now);
  expect(purged).toBeGreaterThanOrEqual(2);
  const left = await db
    .select({ summary: activity.summary })
    .from(activity)
    .where(eq(activity.companyId, d.companyId));
  expect(left.map((r) => r.summary).sort()).toEqual(['aged 1', 'aged 89']);
});

it('the running service’s background jobs purge old Activity', async () => {
  const d = await s.seed();
  const db = s.sg.deps.services.db;
  await db.insert(activity).values({
    companyId: d.companyId,
    tool: 'get_brand',
    outcome: 'allowed',
    summary: 'very old',
    createdAt: new Date(Date.now() - 200 * 86_400_000),
  });
  await runJob(s, 'activity');
  const left = await db.select().from(activity).where(eq(activity.companyId, d.companyId));
  expect(left).toEqual([]);
});
