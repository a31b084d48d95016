// Plan kind `search_visibility` (SPEC §4.5): whether search engines may index the live site. Pinned to
// the setting's value at review: if it changed meanwhile, the plan no longer describes the change.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { websites } from '../../db/schema.js';
import type { SiteCtx } from '../../domain/context.js';
import { Refusal } from '../../kernel/errors.js';
import { type PlanTicket, createPlan } from '../store.js';
import { defineKind } from './types.js';

const VisibilitySubject = z.object({ siteName: z.string(), visible: z.boolean() });
type VisibilitySubject = z.infer<typeof VisibilitySubject>;

/** The setting as it is now (row locked), with the site's name the plan shows. */
async function lockedSetting(ctx: SiteCtx): Promise<{ visible: boolean; name: string }> {
  const [row] = await ctx.tx
    .select({ visible: websites.searchVisible, name: websites.name })
    .from(websites)
    .where(eq(websites.id, ctx.website.id))
    .for('update');
  if (!row) throw new Error('website vanished');
  return row;
}

const describe = (v: boolean) => (v ? 'visible to search engines' : 'hidden from search engines');

const MEANS = {
  visible:
    'Search engines such as Google and Bing may list the live pages in their results, so new visitors can find the site by searching.',
  hidden:
    'Search engines are asked not to list the site; pages already listed drop out over time. Anyone with the address can still visit.',
};

export const searchVisibilityKind = defineKind<VisibilitySubject>({
  kind: 'search_visibility',
  rule: {
    name: 'confirm_pending_action (search visibility)',
    scope: 'settings:write',
    area: 'settings',
    role: 'editor',
  },
  subject: VisibilitySubject,
  revision: async (ctx) => `searchVisible:${(await lockedSetting(ctx)).visible}`,
  review: (s) => ({
    title: `Make ${s.siteName} ${describe(s.visible)}`,
    facts: [
      { label: 'Now', value: describe(!s.visible) },
      { label: 'After approval', value: describe(s.visible) },
      { label: 'What it means', value: s.visible ? MEANS.visible : MEANS.hidden },
    ],
  }),
  async execute(ctx, s) {
    await ctx.tx
      .update(websites)
      .set({ searchVisible: s.visible, updatedAt: ctx.now })
      .where(eq(websites.id, ctx.website.id));
    return { searchVisible: s.visible };
  },
});

export async function prepareSearchVisibility(ctx: SiteCtx, visible: boolean): Promise<PlanTicket> {
  const { visible: now, name } = await lockedSetting(ctx);
  if (now === visible) throw new Refusal('conflict', `The site is already ${describe(visible)}.`);
  return createPlan(ctx, 'search_visibility', {
    subject: { siteName: name, visible },
    pinnedRevision: `searchVisible:${now}`,
    summary: `Make ${name} ${describe(visible)}.`,
  });
}
