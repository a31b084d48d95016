// Whether search engines may index the live site (websites.search_visible). It changes only through the
// reviewed search-visibility plan: the plan kind (src/plans/kinds/visibility.ts) pins the setting as
// read here and, once approved, writes the new value here.
import { eq } from 'drizzle-orm';
import { websites } from '../../db/schema.js';
import type { SiteCtx } from '../context.js';

/** The setting as it is now, with the site's name, the website row locked until the call commits. */
export async function lockSearchVisibility(ctx: SiteCtx): Promise<{ visible: boolean; name: string }> {
  const [row] = await ctx.tx
    .select({ visible: websites.searchVisible, name: websites.name })
    .from(websites)
    .where(eq(websites.id, ctx.website.id))
    .for('update');
  if (!row) throw new Error('website vanished');
  return row;
}

export async function setSearchVisibility(ctx: SiteCtx, visible: boolean): Promise<void> {
  await ctx.tx
    .update(websites)
    .set({ searchVisible: visible, updatedAt: ctx.now })
    .where(eq(websites.id, ctx.website.id));
}
