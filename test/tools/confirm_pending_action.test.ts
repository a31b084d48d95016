// confirm_pending_action: carries out a plan its owner approved, once, for the connection that prepared
// it. The owner's approval is the same function the signed-in approval page calls.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pendingActions, websites } from '../../src/db/schema.js';
import { approvePlan } from '../../src/plans/approve.js';
import { type Workspace, toolKit } from './kit.js';

const kit = toolKit();

/** A search-visibility plan prepared through the all-scopes connection and approved by the owner. */
async function approvedPlan(w: Workspace): Promise<string> {
  // A new website is hidden from search engines: the plan makes it visible.
  const r = await kit.call(w.tokens.all, 'prepare_search_visibility', { visible: true });
  if (!r.ok) throw new Error(`prepare_search_visibility refused: ${JSON.stringify(r.error)}`);
  const planId = r.data!.planId as string;
  await approvePlan(kit.sg.deps.services, w.users.owner.id, planId);
  return planId;
}

it('matches its contract snapshot', () => kit.expectContract('confirm_pending_action'));

it('carries out the approved plan once and marks it redeemed', async () => {
  const w = await kit.workspace();
  const planId = await approvedPlan(w);
  const r = await kit.call(w.tokens.all, 'confirm_pending_action', { planId });
  expect(r.data).toMatchObject({
    planId,
    kind: 'search_visibility',
    status: 'redeemed',
    result: { searchVisible: true },
  });
  const [site] = await kit.db.select().from(websites).where(eq(websites.id, w.websites.main));
  expect(site!.searchVisible).toBe(true);
  const [plan] = await kit.db.select().from(pendingActions).where(eq(pendingActions.id, planId));
  expect(plan).toMatchObject({ status: 'redeemed', result: { searchVisible: true } });
});

it("gives another workspace's caller the same not_found as a missing plan, performing nothing", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  const planId = await approvedPlan(w);
  const opts = {
    tool: 'confirm_pending_action',
    companyIds: [other.companyId, w.companyId] as [string, string],
  };
  const r = await kit.expectRefusal(
    'not_found',
    () => kit.call(other.tokens.all, 'confirm_pending_action', { planId }),
    opts,
  );
  const missing = await kit.expectRefusal(
    'not_found',
    () => kit.call(other.tokens.all, 'confirm_pending_action', { planId: 'plan_nope' }),
    opts,
  );
  expect(missing.error).toEqual(r.error);
});
