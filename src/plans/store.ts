// Storage of reviewed plans (R-PLAN-1, R-LIM-3): created for the caller (connection + creator), anchored to
// a website, pinning the reviewed revision, living 5 minutes on the server's clock, single use.
// Expired plans are refused from the moment they expire and deleted by a background job later.
import { lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { newId } from '../kernel/ids.js';
import { pendingActions } from '../db/schema.js';
import type { SiteCtx } from '../domain/context.js';
import { Refusal } from '../kernel/errors.js';
import { type PlanKind, isPlanKind } from './kinds/types.js';
import { notifyOwnersOfPlan } from './notify.js';

export const PLAN_TTL_MS = 5 * 60_000;
/**
 * Expired plans stay this long, so a late confirm gets `plan_expired`, not `not_found`, and the owner
 * can still see on /approvals what became of each one (approved, declined, expired, carried out); then
 * they go.
 */
export const PLAN_GC_GRACE_MS = 7 * 86_400_000;

export type PlanRow = typeof pendingActions.$inferSelect;

/** What every prepare_* tool returns (R-PLAN-1). */
export type PlanTicket = {
  planId: string;
  kind: PlanKind;
  status: 'pending';
  summary: string;
  expiresAt: string;
  approveUrl: string;
};

export type PlanDraft = { subject: Record<string, unknown>; pinnedRevision: string; summary: string };

export function approveUrl(baseUrl: string, planId: string): string {
  return `${baseUrl}/approvals/${planId}`;
}

/** Creates a pending plan for the acting connection on the context's website. */
export async function createPlan(ctx: SiteCtx, kind: string, draft: PlanDraft): Promise<PlanTicket> {
  // Only the kinds of R-PLAN-7 exist; anything else (e.g. booking cancellation) has no way onto the rail.
  if (!isPlanKind(kind)) throw new Refusal('invalid_input', `There is no reviewed action of kind "${kind}".`);
  if (!ctx.actor.connectionId) throw new Error('a plan needs a connection as its caller');
  const id = newId('plan');
  const expiresAt = new Date(ctx.now.getTime() + PLAN_TTL_MS);
  await ctx.tx.insert(pendingActions).values({
    id,
    kind,
    websiteId: ctx.website.id,
    connectionId: ctx.actor.connectionId,
    creatorId: ctx.actor.userId,
    subject: draft.subject,
    pinnedRevision: draft.pinnedRevision,
    summary: draft.summary,
    status: 'pending',
    createdAt: ctx.now,
    expiresAt,
  });
  const url = approveUrl(ctx.services.config.baseUrl, id);
  await notifyOwnersOfPlan(ctx, { kind, summary: draft.summary, expiresAt, approveUrl: url });
  return {
    planId: id,
    kind,
    status: 'pending',
    summary: draft.summary,
    expiresAt: expiresAt.toISOString(),
    approveUrl: url,
  };
}

export function isExpired(plan: PlanRow, now: Date): boolean {
  return plan.expiresAt.getTime() <= now.getTime();
}

/** Garbage-collects plans that expired more than the grace period ago (JOBS in src/runtime.ts). */
export async function purgeExpiredPlans(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(pendingActions)
    .where(lt(pendingActions.expiresAt, new Date(now.getTime() - PLAN_GC_GRACE_MS)))
    .returning({ id: pendingActions.id });
  return gone.length;
}
