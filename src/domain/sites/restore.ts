// Restore points (R-SITE-4): a snapshot of a
// website's draft pages and sections, and the domain function that puts it back exactly.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { newId } from '../../kernel/ids.js';
import { pages, restorePoints, sections } from '../../db/schema.js';
import { notFound } from '../../kernel/errors.js';
import { insertPages } from '../pages/insert.js';
import { insertSections, sectionsChanged } from '../sections/store.js';
import { bumpDraftRevision } from './draft-revision.js';

type PageRow = typeof pages.$inferSelect;
type SectionRow = typeof sections.$inferSelect;
type Snapshot = { pages: PageRow[]; sections: SectionRow[] };

export async function takeRestorePoint(
  tx: Db,
  websiteId: string,
  reason: string,
  createdBy: string | null,
  now: Date,
): Promise<string> {
  // Sequential: inside a transaction on node-postgres both would share one client.
  const pageRows = await tx.select().from(pages).where(eq(pages.websiteId, websiteId));
  const sectionRows = await tx.select().from(sections).where(eq(sections.websiteId, websiteId));
  const id = newId('rp');
  await tx.insert(restorePoints).values({
    id,
    websiteId,
    reason,
    snapshot: { pages: pageRows, sections: sectionRows } as unknown as Record<string, unknown>,
    createdBy,
    createdAt: now,
  });
  return id;
}

const dates = <T extends { createdAt: unknown; updatedAt: unknown }>(r: T): T => ({
  ...r,
  createdAt: new Date(r.createdAt as string),
  updatedAt: new Date(r.updatedAt as string),
});

/** Replaces the website's draft pages and sections with the snapshot of restore point `pointId`. */
export async function restoreFromPoint(
  tx: Db,
  websiteId: string,
  pointId: string,
  now = new Date(),
): Promise<void> {
  const [point] = await tx
    .select()
    .from(restorePoints)
    .where(and(eq(restorePoints.id, pointId), eq(restorePoints.websiteId, websiteId)));
  if (!point) throw notFound('restore point');
  const snap = point.snapshot as unknown as Snapshot;
  sectionsChanged(tx);
  await tx.delete(sections).where(eq(sections.websiteId, websiteId));
  await tx.delete(pages).where(eq(pages.websiteId, websiteId));
  await insertPages(tx, snap.pages.map(dates));
  await insertSections(tx, snap.sections.map(dates));
  await bumpDraftRevision(tx, websiteId, now);
}
