// Restore points the owner can use (R-SITE-4):
// listing a website's restore points and putting one back. Owner only, signed-in app only — there is
// deliberately no tool for this (a restore replaces the whole draft). A restore first takes a restore
// point of the draft it replaces, so it can itself be undone, and is recorded in Activity in the same
// transaction.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { activity, restorePoints, websites } from '../../db/schema.js';
import { authorizePerson } from '../../gate/person.js';
import { restoreFromPoint, takeRestorePoint } from './restore.js';
import { notFound } from '../../kernel/errors.js';
import { transaction, workspaceOf } from '../../db/transactions.js';

export type RestorePointItem = {
  id: string;
  reason: string;
  createdAt: Date;
  pages: number;
  sections: number;
};

export type OwnedSite = { id: string; name: string; companyId: string; config: Record<string, unknown> };

/** The website if `userId` owns it; the gate decides (a member who is not the owner gets owner_only). */
async function ownedSite(db: Db, userId: string, websiteId: string): Promise<OwnedSite> {
  const { website } = await authorizePerson(db, { userId }, 'restore_points.use', websiteId);
  return { id: website.id, name: website.name, companyId: website.companyId, config: website.config };
}

/** Newest first, without loading the snapshots themselves. */
export async function listRestorePoints(db: Db, userId: string, websiteId: string) {
  const site = await ownedSite(db, userId, websiteId);
  const points: RestorePointItem[] = await db
    .select({
      id: restorePoints.id,
      reason: restorePoints.reason,
      createdAt: restorePoints.createdAt,
      pages: sql<number>`coalesce(jsonb_array_length(${restorePoints.snapshot}->'pages'), 0)::int`,
      sections: sql<number>`coalesce(jsonb_array_length(${restorePoints.snapshot}->'sections'), 0)::int`,
    })
    .from(restorePoints)
    .where(eq(restorePoints.websiteId, site.id))
    .orderBy(desc(restorePoints.createdAt), desc(restorePoints.id));
  return { site, points };
}

/**
 * Replaces the website's draft with restore point `pointId` (the live site is untouched until the owner
 * publishes). Takes a restore point of the current draft first and records one Activity line.
 */
export async function restoreSite(
  db: Db,
  userId: string,
  websiteId: string,
  pointId: string,
  now: Date,
): Promise<{ undoPointId: string; point: RestorePointItem }> {
  return transaction(db, workspaceOf(websiteId), async (tx) => {
    const site = await ownedSite(tx, userId, websiteId);
    const [point] = await tx
      .select({ id: restorePoints.id, reason: restorePoints.reason, createdAt: restorePoints.createdAt })
      .from(restorePoints)
      .where(and(eq(restorePoints.id, pointId), eq(restorePoints.websiteId, site.id)));
    if (!point) throw notFound('restore point');
    // Serialise restores of one site: the second waits and restores onto the first one's result.
    await tx.select({ id: websites.id }).from(websites).where(eq(websites.id, site.id)).for('update');
    const undoPointId = await takeRestorePoint(tx, site.id, 'before a restore', userId, now);
    await restoreFromPoint(tx, site.id, point.id, now);
    await tx.insert(activity).values({
      companyId: site.companyId,
      websiteId: site.id,
      connectionId: null,
      tool: 'restore_point',
      outcome: 'allowed',
      summary: `The owner restored the draft to restore point ${point.id} (${point.reason}); the replaced draft was kept as restore point ${undoPointId}.`,
      createdAt: now,
    });
    return { undoPointId, point: { ...point, pages: 0, sections: 0 } };
  });
}
