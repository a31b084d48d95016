// Deleting a draft page or blog post (human-only, the owner's console: never a tool). It leaves the
// draft at once; the live site keeps it until the next publish, whose review lists it as going offline.
import { eq } from 'drizzle-orm';
import { pages, sections } from '../../db/schema.js';
import { recordOwnerAction } from '../activity/owner.js';
import type { SiteCtx } from '../context.js';
import { bumpDraft, lockPage, sectionsChanged } from '../sections/store.js';

export async function deletePage(ctx: SiteCtx, pageId: string): Promise<{ draftRevision: number }> {
  const page = await lockPage(ctx, pageId);
  sectionsChanged(ctx.tx);
  await ctx.tx.delete(sections).where(eq(sections.pageId, page.id));
  await ctx.tx.delete(pages).where(eq(pages.id, page.id));
  const draftRevision = await bumpDraft(ctx);
  const what = page.kind === 'post' ? 'blog post' : 'page';
  await recordOwnerAction(
    ctx,
    'delete_page',
    `The owner deleted the draft ${what} /${page.slug}; the live site changes at the next publish.`,
  );
  return { draftRevision };
}
