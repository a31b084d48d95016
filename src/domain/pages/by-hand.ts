// The owner's own edits of the draft in the console: the same domain functions the tools run (so the
// same validation, the same section and draft revisions, and an open approval review sees the changed
// draft exactly as after an agent's edit), each with the owner's Activity line in the same transaction.
// The console's forms say what the owner saw (a section's rev, its position, whether it was hidden):
// a form older than the draft is refused with what changed, and nothing is written.
import { and, eq } from 'drizzle-orm';
import { pages } from '../../db/schema.js';
import { Refusal, notFound } from '../../kernel/errors.js';
import { recordOwnerAction } from '../activity/owner.js';
import type { SiteCtx } from '../context.js';
import { addSection, moveSection, replaceSectionContent, setSectionHidden } from '../sections/edit.js';
import { lockPage, lockPageSections, lockSection } from '../sections/store.js';
import { createPage, updatePageSeo } from './write.js';

async function pathOf(ctx: SiteCtx, pageId: string): Promise<string> {
  const [page] = await ctx.tx
    .select({ slug: pages.slug })
    .from(pages)
    .where(and(eq(pages.id, pageId), eq(pages.websiteId, ctx.website.id)));
  if (!page) throw notFound('page');
  return `/${page.slug}`;
}

/** A form that was drawn from an older draft than the one there is now. */
const moved = (what: string) =>
  new Refusal(
    'stale_revision',
    `${what} changed after you opened this page, so nothing was changed.`,
    'Open the page again to see it as it is now, then make your change.',
  );

/** Saves a section's whole content as the owner's form holds it, only on the rev the form was drawn from. */
export async function saveSectionByHand(
  ctx: SiteCtx,
  input: { pageId: string; sectionId: string; content: Record<string, unknown>; clientRev: number },
) {
  const path = await pathOf(ctx, input.pageId);
  const saved = await replaceSectionContent(ctx, input);
  await recordOwnerAction(
    ctx,
    'replace_section_content',
    `The owner edited a ${saved.type} section of ${path} by hand.`,
  );
  return saved;
}

export async function addSectionByHand(ctx: SiteCtx, input: { pageId: string; type: string }) {
  const path = await pathOf(ctx, input.pageId);
  const added = await addSection(ctx, input);
  await recordOwnerAction(ctx, 'add_section', `The owner added a ${added.type} section to ${path}.`);
  return added;
}

/** Moves a section one place up or down from where the owner saw it. */
export async function moveSectionByHand(
  ctx: SiteCtx,
  input: { pageId: string; sectionId: string; from: number; direction: 'up' | 'down' },
) {
  // The page row before its sections, the order every draft write takes (moveSection's own).
  const path = `/${(await lockPage(ctx, input.pageId)).slug}`;
  const list = await lockPageSections(ctx, input.pageId);
  const at = list.findIndex((s) => s.id === input.sectionId);
  if (at < 0) throw notFound('section');
  if (at !== input.from) throw moved('The order of the sections');
  const to = input.direction === 'up' ? at - 1 : at + 1;
  if (to < 0 || to >= list.length) {
    throw new Refusal(
      'invalid_input',
      `The section is already the ${to < 0 ? 'first' : 'last'} on the page.`,
    );
  }
  const done = await moveSection(ctx, { pageId: input.pageId, sectionId: input.sectionId, position: to });
  await recordOwnerAction(
    ctx,
    'move_section',
    `The owner moved a ${done.type} section of ${path} ${input.direction}, to place ${to + 1}.`,
  );
  return done;
}

/** Hides or shows a section; refused when it is already so (a stale form, or someone else did it). */
export async function setSectionHiddenByHand(
  ctx: SiteCtx,
  input: { pageId: string; sectionId: string; hidden: boolean },
) {
  const path = await pathOf(ctx, input.pageId);
  const row = await lockSection(ctx, input.pageId, input.sectionId);
  if (row.hidden === input.hidden) throw moved('This section');
  const done = await setSectionHidden(ctx, input);
  await recordOwnerAction(
    ctx,
    'set_section_hidden',
    `The owner ${input.hidden ? 'hid' : 'showed again'} a ${done.type} section of ${path}.`,
  );
  return done;
}

export async function updatePageSeoByHand(
  ctx: SiteCtx,
  input: { pageId: string; title: string; description: string },
) {
  const path = await pathOf(ctx, input.pageId);
  const done = await updatePageSeo(ctx, input);
  await recordOwnerAction(
    ctx,
    'update_page_seo',
    `The owner changed the search title and description of ${path}.`,
  );
  return done;
}

export async function createPageByHand(ctx: SiteCtx, input: { title: string; slug?: string }) {
  const made = await createPage(ctx, input);
  await recordOwnerAction(ctx, 'create_page', `The owner added the page /${made.slug} to the draft.`);
  return made;
}
