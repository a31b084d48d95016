// Owner approval in the signed-in web app (R-PLAN-2): only the anchor site's
// owner who is also the connection's creator may approve; any owner of the site may decline. Pending
// plans are listed for the sites the user owns; expired ones are never shown or approvable.
import { type SQL, and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { connections, pendingActions, websites } from '../db/schema.js';
import { ownedWebsiteIds } from '../gate/owners.js';
import { type Services, type SiteCtx, noProgress } from '../domain/context.js';
import { timeZoneOf } from '../domain/crm/booking-request.js';
import { type SiteView, loadSiteView } from '../domain/sites/view.js';
import { pinnedDraftRev } from './kinds/publish.js';
import { Refusal, notFound } from '../kernel/errors.js';
import { authorizePerson } from '../gate/person.js';
import { kindOf } from './kinds/index.js';
import type { PlanReview } from './kinds/types.js';
import { type PlanRow, isExpired } from './store.js';
import { type LockFirst, READS, transaction, workspaceOf } from '../db/transactions.js';

export type ApprovalListItem = {
  planId: string;
  kind: string;
  siteName: string;
  summary: string;
  expiresAt: Date;
  canApprove: boolean;
  /** The connection (assistant) that prepared it. */
  connectionName: string;
  createdAt: Date;
  /** The website's time zone, for showing times. */
  timeZone: string;
};

/** What a list of plans shows of each: never its subject, which for a publish holds the whole draft. */
const PLAN_HEAD = {
  id: pendingActions.id,
  kind: pendingActions.kind,
  summary: pendingActions.summary,
  status: pendingActions.status,
  creatorId: pendingActions.creatorId,
  createdAt: pendingActions.createdAt,
  expiresAt: pendingActions.expiresAt,
  approvedAt: pendingActions.approvedAt,
  redeemedAt: pendingActions.redeemedAt,
};

/**
 * Plans of the live websites `userId` owns (which ones, the gate says), each with its site's name and
 * zone and its connection's name, narrowed by `where`: the waiting list and the history read these.
 */
export function ownedPlanRows(db: Db, userId: string, where: SQL) {
  return db
    .select({
      plan: PLAN_HEAD,
      siteName: websites.name,
      config: websites.config,
      connectionName: connections.name,
    })
    .from(pendingActions)
    .innerJoin(websites, eq(websites.id, pendingActions.websiteId))
    .leftJoin(connections, eq(connections.id, pendingActions.connectionId))
    .where(
      and(inArray(pendingActions.websiteId, ownedWebsiteIds(db, userId)), isNull(websites.deletedAt), where),
    );
}

/** Pending, unexpired plans of the websites this user owns. */
export async function listApprovals(db: Db, userId: string, now: Date): Promise<ApprovalListItem[]> {
  const rows = await ownedPlanRows(
    db,
    userId,
    and(eq(pendingActions.status, 'pending'), gt(pendingActions.expiresAt, now))!,
  ).orderBy(asc(pendingActions.expiresAt));
  return rows.map((r) => ({
    planId: r.plan.id,
    kind: r.plan.kind,
    siteName: r.siteName,
    summary: r.plan.summary,
    expiresAt: r.plan.expiresAt,
    canApprove: r.plan.creatorId === userId,
    connectionName: r.connectionName ?? 'a removed connection',
    createdAt: r.plan.createdAt,
    timeZone: timeZoneOf(r.config),
  }));
}

export type PlanView = {
  plan: PlanRow;
  siteName: string;
  connectionName: string;
  review: PlanReview;
  /** True when the reviewed subject has changed since the plan was prepared (approval is refused). */
  revisionChanged: boolean;
  /** Why this user cannot approve, or null when they can. */
  cannotApprove: string | null;
  /** The workspace's time zone (the website's configured one, else UTC) for every time shown. */
  timeZone: string;
};

type Loaded = {
  plan: PlanRow;
  site: SiteCtx;
  /** The plan's website as read here, for its name and time zone. */
  website: { name: string; config: Record<string, unknown> };
  connectionName: string;
  revoked: boolean;
};

/** Loads a plan for a signed-in user: members who are not owners get owner_only, strangers not_found. */
async function loadForUser(
  tx: Db,
  services: Services,
  userId: string,
  planId: string,
  now: Date,
  lock: boolean,
  readOnly = false,
) {
  const q = tx.select().from(pendingActions).where(eq(pendingActions.id, planId));
  const [plan] = lock ? await q.for('update') : await q;
  if (!plan) throw notFound('plan');
  // The gate decides for the person (live role; a deleted site is gone) and words its refusal: a
  // stranger learns nothing about the plan, a member who is not the owner is told only the owner decides.
  const row = await authorizePerson(tx, { userId }, 'plans.review', plan.websiteId);
  // A carried-out or declined plan stays readable after its 5 minutes (the owner sees what happened);
  // anything still open is refused once expired.
  const settled = plan.status === 'redeemed' || plan.status === 'declined';
  if (isExpired(plan, now) && !(readOnly && settled)) {
    throw new Refusal(
      'plan_expired',
      'This plan expired (plans live 5 minutes) before it was carried out. Nothing happened.',
    );
  }
  const [conn] = await tx
    .select({ name: connections.name, revokedAt: connections.revokedAt })
    .from(connections)
    .where(eq(connections.id, plan.connectionId));
  const site: SiteCtx = {
    tx,
    now,
    // The plan acts for its caller: revisions are computed as the confirming connection will see them.
    actor: { userId: plan.creatorId, companyId: row.website.companyId, connectionId: plan.connectionId },
    services,
    progress: noProgress,
    website: { id: row.website.id, companyId: row.website.companyId },
    role: 'owner',
  };
  return {
    plan,
    site,
    website: row.website,
    connectionName: conn?.name ?? 'a removed connection',
    revoked: !conn || conn.revokedAt !== null,
  };
}

async function evaluate(l: Loaded, userId: string) {
  const kind = kindOf(l.plan.kind);
  if (!kind) throw new Refusal('invalid_input', `There is no reviewed action of kind "${l.plan.kind}".`);
  const subject = kind.subject.parse(l.plan.subject);
  // Only an open plan is compared with the subject as it is now; a settled one describes the past.
  const open = l.plan.status === 'pending' || l.plan.status === 'approved';
  const revisionChanged = open && (await kind.revision(l.site, subject)) !== l.plan.pinnedRevision;
  let cannotApprove: string | null = null;
  if (l.plan.creatorId !== userId) {
    cannotApprove = 'Only the owner who created the connection that prepared this plan can approve it.';
  } else if (l.revoked) cannotApprove = 'The connection that prepared this plan has been revoked.';
  else if (l.plan.status !== 'pending') cannotApprove = `This plan is already ${l.plan.status}.`;
  else if (revisionChanged) {
    cannotApprove =
      'What this plan describes has changed since it was prepared. Ask the assistant to prepare it again.';
  }
  const review = kind.review(subject, { siteName: l.website.name });
  // A moved draft no longer shows what the plan describes: no preview then (reviewedView).
  if (revisionChanged) review.preview = false;
  return { review, revisionChanged, cannotApprove };
}

export async function viewPlan(services: Services, userId: string, planId: string): Promise<PlanView> {
  return transaction(services.db, READS, async (tx) => {
    const l = await loadForUser(tx, services, userId, planId, services.clock(), false, true);
    const e = await evaluate(l, userId);
    return {
      plan: l.plan,
      siteName: l.website.name,
      connectionName: l.connectionName,
      timeZone: timeZoneOf(l.website.config),
      ...e,
    };
  });
}

/**
 * The site exactly as reviewed in a publish plan, for the approval page's preview; null for a plan of
 * another kind. The plan is pinned to a draft counter (src/plans/kinds/publish.ts): while the draft is
 * still at it, the draft is what was reviewed; once that revision is the live one, the live site is.
 * The counter is read again after the view, and every change to the draft moves it in the change's own
 * transaction, so a view read while it stood still is of that revision. Any other time the reviewed
 * draft is gone and the preview says so. Same access as the plan page: the anchor site's owners only.
 */
export async function reviewedView(
  services: Services,
  userId: string,
  planId: string,
): Promise<{ view: SiteView; live: boolean } | null> {
  return transaction(services.db, READS, async (tx) => {
    const l = await loadForUser(tx, services, userId, planId, services.clock(), false, true);
    if (l.plan.kind !== 'publish') return null;
    const websiteId = l.site.website.id;
    const rev = pinnedDraftRev(l.plan.pinnedRevision);
    // A carried-out plan is shown as it went live while the live site is still its revision.
    const live = l.plan.status === 'redeemed';
    const side = rev === null ? null : await sideAt(tx, websiteId, rev, live);
    const view = side && (await loadSiteView(tx, websiteId, side));
    if (view && (await sideAt(tx, websiteId, rev!, live)) === side) {
      return { view, live: side === 'published' };
    }
    throw new Refusal(
      'plan_revision_changed',
      l.plan.status === 'pending' || l.plan.status === 'approved'
        ? 'The draft has changed since this plan was prepared, so the preview can no longer show what it describes. Ask the assistant to prepare it again.'
        : 'The site has changed since this plan was settled, so the draft it described can no longer be shown. The live site shows what is published now.',
    );
  });
}

/**
 * Where the draft revision `rev` can still be seen: the draft, the live site (first when `liveFirst`,
 * where both still are), or nowhere.
 */
async function sideAt(
  tx: Db,
  websiteId: string,
  rev: number,
  liveFirst: boolean,
): Promise<'draft' | 'published' | null> {
  const [row] = await tx
    .select({ draftRev: websites.draftRev, publishedRev: websites.publishedRev })
    .from(websites)
    .where(eq(websites.id, websiteId));
  const isLive = row?.publishedRev === rev;
  if (liveFirst && isLive) return 'published';
  if (row?.draftRev === rev) return 'draft';
  return isLive ? 'published' : null;
}

/** What approving or declining a plan locks first: its website's workspace (src/db/transactions.ts). */
async function planLockFirst(db: Db, planId: string): Promise<LockFirst> {
  const [plan] = await db
    .select({ websiteId: pendingActions.websiteId })
    .from(pendingActions)
    .where(eq(pendingActions.id, planId));
  return plan ? workspaceOf(plan.websiteId) : READS;
}

export async function approvePlan(services: Services, userId: string, planId: string): Promise<void> {
  await transaction(services.db, await planLockFirst(services.db, planId), async (tx) => {
    const now = services.clock();
    const l = await loadForUser(tx, services, userId, planId, now, true);
    const e = await evaluate(l, userId);
    if (e.cannotApprove) {
      const code =
        l.plan.creatorId !== userId ? 'owner_only' : e.revisionChanged ? 'plan_revision_changed' : 'conflict';
      throw new Refusal(code, e.cannotApprove);
    }
    const done = await tx
      .update(pendingActions)
      .set({ status: 'approved', approvedBy: userId, approvedAt: now })
      .where(and(eq(pendingActions.id, planId), eq(pendingActions.status, 'pending')))
      .returning({ id: pendingActions.id });
    if (done.length !== 1) throw new Refusal('conflict', 'This plan is no longer pending.');
  });
}

export async function declinePlan(services: Services, userId: string, planId: string): Promise<void> {
  await transaction(services.db, await planLockFirst(services.db, planId), async (tx) => {
    const now = services.clock();
    await loadForUser(tx, services, userId, planId, now, true);
    const done = await tx
      .update(pendingActions)
      .set({ status: 'declined' })
      .where(and(eq(pendingActions.id, planId), eq(pendingActions.status, 'pending')))
      .returning({ id: pendingActions.id });
    if (done.length !== 1) throw new Refusal('conflict', 'This plan is no longer pending.');
  });
}
