// Turning the draft into the published snapshot, and taking the site offline. Called by the
// reviewed-plan executors (never directly by a tool: R-TOOL-5).
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { PublishedSnapshot } from '../../db/page-shape.js';
import { websites } from '../../db/schema.js';
import { loadDraft } from './draft.js';

export async function publishDraft(tx: Db, websiteId: string, now: Date): Promise<PublishedSnapshot> {
  const [site] = await tx
    .select({ draftRev: websites.draftRev })
    .from(websites)
    .where(eq(websites.id, websiteId))
    .for('update');
  if (!site) throw new Error(`website ${websiteId} vanished`);
  const snapshot: PublishedSnapshot = { rev: site.draftRev, pages: await loadDraft(tx, websiteId) };
  await tx
    .update(websites)
    .set({ published: snapshot, publishedRev: site.draftRev, publishedAt: now, updatedAt: now })
    .where(eq(websites.id, websiteId));
  return snapshot;
}

/** Offline at once; `publishedAt` keeps when it was last live, so the owner's pages can say it is offline. */
export async function unpublishSite(tx: Db, websiteId: string, now: Date): Promise<void> {
  await tx
    .update(websites)
    .set({ published: null, publishedRev: null, updatedAt: now })
    .where(eq(websites.id, websiteId));
}
