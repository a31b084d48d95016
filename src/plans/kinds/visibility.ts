// Plan kind `search_visibility` (R-SITE-5, R-PLAN-7): whether search engines may index the live site. Pinned
// to the setting's value at review: if it changed meanwhile, the plan no longer describes the change.
import { z } from 'zod';
import type { SiteCtx } from '../../domain/context.js';
import { lockSearchVisibility, setSearchVisibility } from '../../domain/settings/search-visibility.js';
import { Refusal } from '../../kernel/errors.js';
import { type PlanTicket, createPlan } from '../store.js';
import { defineKind } from './types.js';

const VisibilitySubject = z.object({ siteName: z.string(), visible: z.boolean() });
type VisibilitySubject = z.infer<typeof VisibilitySubject>;

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
  revision: async (ctx) => `searchVisible:${(await lockSearchVisibility(ctx)).visible}`,
  review: (s) => ({
    title: `Make ${s.siteName} ${describe(s.visible)}`,
    facts: [
      { label: 'Now', value: describe(!s.visible) },
      { label: 'After approval', value: describe(s.visible) },
      { label: 'What it means', value: s.visible ? MEANS.visible : MEANS.hidden },
    ],
  }),
  async execute(ctx, s) {
    await setSearchVisibility(ctx, s.visible);
    return { searchVisible: s.visible };
  },
});

export async function prepareSearchVisibility(ctx: SiteCtx, visible: boolean): Promise<PlanTicket> {
  const { visible: now, name } = await lockSearchVisibility(ctx);
  if (now === visible) throw new Refusal('conflict', `The site is already ${describe(visible)}.`);
  return createPlan(ctx, 'search_visibility', {
    subject: { siteName: name, visible },
    pinnedRevision: `searchVisible:${now}`,
    summary: `Make ${name} ${describe(visible)}.`,
  });
}
