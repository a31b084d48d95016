// prepare_publish: a pending plan to publish the current draft, pinned to it; nothing goes live yet.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pendingActions, websites } from '../../src/db/schema.js';
import { PLAN_TTL_MS } from '../../src/plans/store.js';
import { toolKit } from './kit.js';
import { liveSnapshot } from '../helpers/live.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('prepare_publish'));

it('creates a pending plan bound to the caller, pinning the draft, living 5 minutes; nothing goes live', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.all, 'prepare_publish');
  expect(r.ok).toBe(true);
  const planId = r.data!.planId as string;
  expect(r.data).toMatchObject({
    kind: 'publish',
    status: 'pending',
    approveUrl: `${kit.sg.deps.services.config.baseUrl}/approvals/${planId}`,
  });
  const [plan] = await kit.db.select().from(pendingActions).where(eq(pendingActions.id, planId));
  expect(plan).toMatchObject({
    status: 'pending',
    websiteId: w.websites.main,
    connectionId: w.connections.all,
    creatorId: w.users.owner.id,
    summary: r.data!.summary,
  });
  expect(plan!.pinnedRevision).toBe('draft:1');
  expect(plan!.expiresAt.getTime() - plan!.createdAt.getTime()).toBe(PLAN_TTL_MS);
  expect(new Date(r.data!.expiresAt)).toEqual(plan!.expiresAt);
  // What the owner will review: the home page, new since nothing is live.
  expect((plan!.subject as { changes: Array<{ page: string }> }).changes).toEqual([
    expect.objectContaining({ page: 'Home' }),
  ]);
  const [site] = await kit.db.select().from(websites).where(eq(websites.id, w.websites.main));
  expect(site).toMatchObject({ publishedRev: null });
  expect(await liveSnapshot(kit.db, w.websites.main)).toBeNull();
});

it('is refused without the publish scope, and no plan is created', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal('scope_missing', () => kit.call(w.tokens.default, 'prepare_publish'), {
    tool: 'prepare_publish',
    companyIds: [w.companyId],
  });
});
