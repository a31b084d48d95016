// Deleting a website (human-only, the owner's console: never a tool). A deleted site goes offline at
// once and every read path treats it as gone (the gate answers not_found to every tool, visitors get
// 404, it leaves list_sites and the site limit). It is kept DELETED_SITE_DAYS for a restore, which
// brings it back as it was but offline until the owner publishes; then the retention sweep purges it
// with every row it holds (its library assets' bytes go with the blob sweep, which removes blobs no
// asset references).
import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import { ownedWebsiteIds } from '../../gate/owners.js';
import type { Db } from '../../db/client.js';
import {
  analyticsDaily,
  analyticsToday,
  analyticsEvents,
  assets,
  bookings,
  brands,
  connections,
  contacts,
  deliveryTokens,
  documents,
  domains,
  invitations,
  leads,
  mailOutbox,
  pages,
  pairings,
  publishedPageDigests,
  publishedSectionDigests,
  draftTouchedPages,
  pendingActions,
  products,
  restorePoints,
  sections,
  services,
  websiteMembers,
  websites,
} from '../../db/schema.js';
import { siteRoom } from '../../gate/site-limit.js';
import { Refusal, invalidInput, notFound } from '../../kernel/errors.js';
import { recordOwnerAction } from '../activity/owner.js';
import type { SiteCtx } from '../context.js';
import { sectionsChanged } from '../sections/store.js';
import { unpublishSite } from './publish.js';
import { transaction, workspaceOf } from '../../db/transactions.js';

const DELETED_SITE_DAYS = 30;
const DAY_MS = 86_400_000;

/** When a site deleted at `deletedAt` is purged. */
function purgeDateOf(deletedAt: Date): Date {
  return new Date(deletedAt.getTime() + DELETED_SITE_DAYS * DAY_MS);
}

/** Deletes the context's website; `typedName` must be its name exactly (the typed confirmation). */
export async function deleteSite(ctx: SiteCtx, typedName: string): Promise<{ purgeAt: Date }> {
  const [site] = await ctx.tx
    .select({ name: websites.name, deletedAt: websites.deletedAt })
    .from(websites)
    .where(eq(websites.id, ctx.website.id))
    .for('update');
  if (!site || site.deletedAt) throw notFound('website');
  if (typedName.trim() !== site.name) {
    throw invalidInput(
      "The name you typed is not this site's name, so nothing was deleted.",
      'Type the name exactly as it is shown.',
    );
  }
  // Offline at once: the live pages go too (a restored site stays offline until published).
  await unpublishSite(ctx.tx, ctx.website.id, ctx.now);
  await ctx.tx
    .update(websites)
    .set({ deletedAt: ctx.now, publishedAt: null })
    .where(eq(websites.id, ctx.website.id));
  await recordOwnerAction(
    ctx,
    'delete_site',
    `The owner deleted the site; it is offline and can be restored for ${DELETED_SITE_DAYS} days.`,
  );
  return { purgeAt: purgeDateOf(ctx.now) };
}

/**
 * Brings a deleted website back as it was, offline. It counts against the site limit again, so the
 * limit is checked (the one check, src/gate/site-limit.ts) with the workspace row locked.
 */
export async function restoreDeletedSite(ctx: SiteCtx): Promise<void> {
  await siteRoom(ctx.tx, ctx.website.companyId, true);
  const done = await ctx.tx
    .update(websites)
    .set({ deletedAt: null, updatedAt: ctx.now })
    .where(and(eq(websites.id, ctx.website.id), isNotNull(websites.deletedAt)))
    .returning({ id: websites.id });
  if (done.length !== 1) throw notFound('website');
  await recordOwnerAction(
    ctx,
    'restore_site',
    'The owner restored the deleted site; it stays offline until it is published.',
  );
}

/**
 * Throws `not_found` unless the website stands in the workspace. For one its owner deleted, the refusal
 * says so and until when the owner can restore it (the replay of the call that created it:
 * src/domain/idempotency/replay.ts).
 */
export async function assertSiteStands(db: Db, companyId: string, websiteId: string): Promise<void> {
  const [site] = await db
    .select({ deletedAt: websites.deletedAt })
    .from(websites)
    .where(and(eq(websites.id, websiteId), eq(websites.companyId, companyId)));
  if (!site) throw notFound('website');
  if (site.deletedAt) {
    const until = purgeDateOf(site.deletedAt).toISOString().slice(0, 10);
    throw new Refusal(
      'not_found',
      `The website this call created (${websiteId}) has since been deleted by its owner. Nothing was changed by this call.`,
      `The owner can restore it from their home page until ${until}; to create another site, call again with a new idempotencyKey.`,
    );
  }
}

export type DeletedSite = { id: string; name: string; deletedAt: Date; purgeAt: Date };

/** The deleted, not yet purged websites `userId` owns (the home lists them with Restore). */
export async function deletedSitesOf(db: Db, userId: string): Promise<DeletedSite[]> {
  const rows = await db
    .select({ id: websites.id, name: websites.name, deletedAt: websites.deletedAt })
    .from(websites)
    .where(and(inArray(websites.id, ownedWebsiteIds(db, userId)), isNotNull(websites.deletedAt)))
    .orderBy(websites.deletedAt);
  return rows.map((r) => ({ ...r, deletedAt: r.deletedAt!, purgeAt: purgeDateOf(r.deletedAt!) }));
}

/**
 * The retention sweep: every website deleted more than DELETED_SITE_DAYS ago is removed with all it
 * holds, one site per transaction. Returns how many were purged.
 */
export async function purgeDeletedSites(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - DELETED_SITE_DAYS * DAY_MS);
  const due = await db
    .select({ id: websites.id })
    .from(websites)
    .where(lt(websites.deletedAt, cutoff))
    .limit(100);
  let purged = 0;
  for (const { id } of due) {
    await transaction(db, workspaceOf(id), async (tx) => {
      // Re-checked under a lock: a restore committed meanwhile keeps the site.
      const [site] = await tx
        .select({ id: websites.id })
        .from(websites)
        .where(and(eq(websites.id, id), lt(websites.deletedAt, cutoff)))
        .for('update');
      if (!site) return;
      const pageIds = tx.select({ id: pages.id }).from(pages).where(eq(pages.websiteId, id));
      sectionsChanged(tx);
      await tx.delete(sections).where(inArray(sections.pageId, pageIds));
      await tx.delete(sections).where(eq(sections.websiteId, id));
      for (const table of [
        pages,
        brands,
        leads,
        bookings,
        contacts,
        documents,
        services,
        products,
        domains,
        assets,
        pendingActions,
        connections,
        deliveryTokens,
        restorePoints,
        analyticsEvents,
        analyticsDaily,
        analyticsToday,
        invitations,
        websiteMembers,
        mailOutbox,
        pairings,
        publishedPageDigests,
        publishedSectionDigests,
        draftTouchedPages,
      ]) {
        await tx.delete(table).where(eq(table.websiteId, id));
      }
      await tx.delete(websites).where(eq(websites.id, id));
      purged += 1;
    });
  }
  return purged;
}
