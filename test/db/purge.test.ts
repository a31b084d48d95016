// The retention sweeps delete in bounded batches, counted in the database: every old row goes across
// several batches and no newer one; a run stops after its most batches and the next run goes on; a
// table keyed by two columns (idempotency keys) is swept the same way.
import { and, count, eq, lt } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { deleteInBatches } from '../../src/db/purge.js';
import { activity } from '../../src/db/schema.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

it('deletes every old row in batches, at most the most batches a run, and none of the newer', async () => {
  const companyId = `co_${uniqueTag()}`;
  const cutoff = new Date('2026-06-01T00:00:00Z');
  const row = (createdAt: Date) => ({
    companyId,
    tool: 'list_pages',
    outcome: 'allowed',
    summary: 'Listed',
    createdAt,
  });
  await database.db
    .insert(activity)
    .values([
      ...Array.from({ length: 23 }, (_, i) => row(new Date(cutoff.getTime() - (i + 1) * 60_000))),
      ...Array.from({ length: 5 }, (_, i) => row(new Date(cutoff.getTime() + (i + 1) * 60_000))),
    ]);
  const mine = lt(activity.createdAt, cutoff);
  const left = async () =>
    Number(
      (await database.db.select({ n: count() }).from(activity).where(eq(activity.companyId, companyId)))[0]!
        .n,
    );
  const where = and(mine, eq(activity.companyId, companyId))!;
  expect(await deleteInBatches(database.db, activity, where, 5, 2)).toBe(10);
  expect(await left()).toBe(18);
  expect(await deleteInBatches(database.db, activity, where, 5)).toBe(13);
  expect(await left()).toBe(5);
  expect(await deleteInBatches(database.db, activity, where, 5)).toBe(0);
});
