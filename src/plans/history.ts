// What became of the plans of the websites a person owns (the approvals page beside the waiting ones):
// approved, declined, expired, carried out, each with when and through which connection. Plans are
// kept a while after they expire (PLAN_GC_GRACE_MS, src/plans/store.ts), then garbage-collected.
import { desc, or, lte, ne } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { pendingActions } from '../db/schema.js';
import { ownedPlanRows } from './approve.js';
import { timeZoneOf } from '../domain/crm/booking-request.js';

export type PlanOutcome = 'approved' | 'declined' | 'expired' | 'carried_out';

export type PlanHistoryItem = {
  planId: string;
  kind: string;
  siteName: string;
  summary: string;
  outcome: PlanOutcome;
  /** When the outcome happened: approval, carrying out, or expiry (a decline records no time). */
  at: Date | null;
  createdAt: Date;
  connectionName: string;
  timeZone: string;
};

const SHOWN = 50;

function outcomeOf(
  plan: { status: string; expiresAt: Date; approvedAt: Date | null; redeemedAt: Date | null },
  now: Date,
): { outcome: PlanOutcome; at: Date | null } | null {
  if (plan.status === 'redeemed') return { outcome: 'carried_out', at: plan.redeemedAt };
  if (plan.status === 'declined') return { outcome: 'declined', at: null };
  const expired = plan.expiresAt.getTime() <= now.getTime();
  if (expired) return { outcome: 'expired', at: plan.expiresAt };
  if (plan.status === 'approved') return { outcome: 'approved', at: plan.approvedAt };
  return null; // still waiting: listed with the waiting ones
}

/** Decided and expired plans of the sites `userId` owns, newest first. */
export async function planHistory(db: Db, userId: string, now: Date): Promise<PlanHistoryItem[]> {
  const rows = await ownedPlanRows(
    db,
    userId,
    or(ne(pendingActions.status, 'pending'), lte(pendingActions.expiresAt, now))!,
  )
    .orderBy(desc(pendingActions.createdAt), desc(pendingActions.id))
    .limit(SHOWN);
  const out: PlanHistoryItem[] = [];
  for (const r of rows) {
    const o = outcomeOf(r.plan, now);
    if (!o) continue;
    out.push({
      planId: r.plan.id,
      kind: r.plan.kind,
      siteName: r.siteName,
      summary: r.plan.summary,
      outcome: o.outcome,
      at: o.at,
      createdAt: r.plan.createdAt,
      connectionName: r.connectionName ?? 'a removed connection',
      timeZone: timeZoneOf(r.config),
    });
  }
  return out;
}
