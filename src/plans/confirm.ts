// Redeeming an approved plan (R-PLAN-4): confirm_pending_action performs the action once,
// within the 5 minutes, for the plan's own caller, if the reviewed revision is unchanged. It
// re-authorizes through the gate against the plan's own website under the rule of the plan's kind
// (the scope, area and role of that kind — this is the scope confirm requires), never a website named
// in the call. Single use holds under concurrency: the plan row is locked (SELECT … FOR UPDATE) and the
// redemption is a conditional UPDATE … WHERE status = 'approved'. Any refusal throws, so the tool's
// transaction rolls back and nothing is written.
import { and, eq } from 'drizzle-orm';
import type { Caller } from '../kernel/caller.js';
import { connections, pendingActions } from '../db/schema.js';
import type { SiteCtx, WorkspaceCtx } from '../domain/context.js';
import { Refusal, notFound } from '../kernel/errors.js';
import { authorize } from '../gate/authorize.js';
import { kindOf } from './kinds/index.js';
import { type PlanRow, isExpired } from './store.js';

export type Redeemed = {
  planId: string;
  kind: string;
  status: 'redeemed';
  summary: string;
  result: Record<string, unknown>;
};

const again = 'Call the prepare_* tool again and ask the owner to approve the new plan.';

/** Checks the plan's own state, in the order an agent can act on. */
function refuseByState(plan: PlanRow, now: Date): void {
  if (plan.status === 'redeemed') throw new Refusal('plan_used', 'This plan was already carried out.', again);
  if (isExpired(plan, now))
    throw new Refusal('plan_expired', 'This plan expired (plans live 5 minutes).', again);
  if (plan.status === 'declined')
    throw new Refusal(
      'review_required',
      'The owner declined this plan; nothing was done.',
      'Do not prepare it again at once: ask the owner what they want changed, and prepare a new plan only when they ask for one.',
    );
  if (plan.status === 'pending') {
    throw new Refusal(
      'plan_pending',
      'The owner has not approved this plan yet.',
      'Ask the owner to open the approveUrl and approve, then call confirm_pending_action again.',
    );
  }
  if (plan.status !== 'approved') throw new Error(`plan ${plan.id} has unknown status ${plan.status}`);
}

async function loadForCaller(ctx: WorkspaceCtx, caller: Caller, planId: string): Promise<PlanRow> {
  const [plan] = await ctx.tx
    .select()
    .from(pendingActions)
    .where(eq(pendingActions.id, planId))
    .for('update');
  if (!plan) throw notFound('plan');
  if (plan.connectionId !== caller.connectionId || plan.creatorId !== caller.creatorId) {
    // Another tenant's plan is simply not found; a plan of another connection here is the wrong caller.
    const [conn] = await ctx.tx
      .select({ companyId: connections.companyId })
      .from(connections)
      .where(eq(connections.id, plan.connectionId));
    if (conn?.companyId !== caller.companyId) throw notFound('plan');
    throw new Refusal(
      'plan_wrong_caller',
      'This plan was prepared through another connection; only that connection can carry it out.',
    );
  }
  return plan;
}

export async function confirmPlan(ctx: WorkspaceCtx, caller: Caller, planId: string): Promise<Redeemed> {
  const plan = await loadForCaller(ctx, caller, planId);
  refuseByState(plan, ctx.now);
  const kind = kindOf(plan.kind);
  if (!kind) throw new Refusal('invalid_input', `There is no reviewed action of kind "${plan.kind}".`);

  // Re-authorize against the plan's own website with the rule of its kind (R-PLAN-4).
  const { website, role } = await authorize(ctx.tx, caller, kind.rule, plan.websiteId);
  const site: SiteCtx = { ...ctx, website, role };
  const subject = kind.subject.parse(plan.subject);
  if ((await kind.revision(site, subject)) !== plan.pinnedRevision) {
    throw new Refusal(
      'plan_revision_changed',
      'What the owner reviewed has changed since, so this plan can no longer be carried out.',
      again,
    );
  }

  const claimed = await ctx.tx
    .update(pendingActions)
    .set({ status: 'redeemed', redeemedAt: ctx.now })
    .where(and(eq(pendingActions.id, plan.id), eq(pendingActions.status, 'approved')))
    .returning({ id: pendingActions.id });
  if (claimed.length !== 1) throw new Refusal('plan_used', 'This plan was already carried out.', again);

  const result = await kind.execute(site, subject);
  await ctx.tx.update(pendingActions).set({ result }).where(eq(pendingActions.id, plan.id));
  return { planId: plan.id, kind: plan.kind, status: 'redeemed', summary: plan.summary, result };
}
