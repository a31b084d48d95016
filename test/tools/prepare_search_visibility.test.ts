// prepare_search_visibility: a pending plan to show the live site to search engines or hide it; the
// setting is unchanged until the plan is carried out.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pendingActions, websites } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('prepare_search_visibility'));

it('creates a pending plan pinned to the current setting, which stays as it is', async () => {
  const w = await kit.workspace();
  // A new website is hidden from search engines until its owner decides otherwise.
  const r = await kit.call(w.tokens.all, 'prepare_search_visibility', { visible: true });
  expect(r.ok).toBe(true);
  const [plan] = await kit.db.select().from(pendingActions).where(eq(pendingActions.id, r.data!.planId));
  expect(plan).toMatchObject({
    kind: 'search_visibility',
    status: 'pending',
    websiteId: w.websites.main,
    connectionId: w.connections.all,
    subject: { siteName: 'Fixture Bakery', visible: true },
    pinnedRevision: 'searchVisible:false',
  });
  const [site] = await kit.db.select().from(websites).where(eq(websites.id, w.websites.main));
  expect(site!.searchVisible).toBe(false);
});

it('is refused without settings:write, and no plan is created', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'scope_missing',
    () => kit.call(w.tokens.default, 'prepare_search_visibility', { visible: true }),
    { tool: 'prepare_search_visibility', companyIds: [w.companyId] },
  );
});
