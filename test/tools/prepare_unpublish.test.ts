// prepare_unpublish: a pending plan to take the live site offline, pinned to the published snapshot;
// the site stays live until the plan is carried out.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pendingActions, websites } from '../../src/db/schema.js';
import { publishDraft } from '../../src/domain/sites/publish.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('prepare_unpublish'));

it('creates a pending plan pinned to the published snapshot; the site stays live', async () => {
  const w = await kit.workspace();
  await publishDraft(kit.db, w.websites.main, new Date());
  const r = await kit.call(w.tokens.all, 'prepare_unpublish');
  expect(r.ok).toBe(true);
  const [plan] = await kit.db.select().from(pendingActions).where(eq(pendingActions.id, r.data!.planId));
  expect(plan).toMatchObject({
    kind: 'unpublish',
    status: 'pending',
    websiteId: w.websites.main,
    connectionId: w.connections.all,
    subject: { siteName: 'Fixture Bakery' },
  });
  const [site] = await kit.db.select().from(websites).where(eq(websites.id, w.websites.main));
  expect(site!.publishedRev).toBe(1);
  // Pinned to the snapshot's name: its revision and the time it went live.
  expect(plan!.pinnedRevision).toBe(`published:1:${site!.publishedAt!.getTime()}`);
});

it('is refused for a site that is not live, and no plan is created', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'conflict',
    () => kit.call(w.tokens.workspace, 'prepare_unpublish', { websiteId: w.websites.events }),
    { tool: 'prepare_unpublish', companyIds: [w.companyId] },
  );
});
