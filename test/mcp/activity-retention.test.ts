// Activity retention (R-ACT-4): entries older than 90 days are purged; newer ones stay.
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { activity } from '../../src/db/schema.js';
import type { Services } from '../../src/domain/context.js';
import { purgeActivity } from '../../src/domain/activity/recorder.js';
import { JOBS } from '../../src/runtime.js';
import type { AppDeps } from '../../src/web/deps.js';
import { testServices } from '../helpers/domain.js';
import { makeWorkspace } from '../helpers/factory.js';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

it('purges entries older than 90 days and keeps the rest', async () => {
  const d = await makeWorkspace(services.db);
  const db = services.db;
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
  const d = await makeWorkspace(services.db);
  const db = services.db;
  await db.insert(activity).values({
    companyId: d.companyId,
    tool: 'get_brand',
    outcome: 'allowed',
    summary: 'very old',
    createdAt: new Date(Date.now() - 200 * 86_400_000),
  });
  // The job the service runs periodically, by name; the retention jobs use the services alone.
  const job = JOBS.find((j) => j.name === 'activity')!;
  await job.run({ services } as Pick<AppDeps, 'services'> as AppDeps);
  const left = await db.select().from(activity).where(eq(activity.companyId, d.companyId));
  expect(left).toEqual([]);
});
