// A publish plan is pinned to the website's draft counter alone (src/plans/kinds/publish.ts), so every
// change to the draft must move it: here every tool that writes a draft page or section runs on one
// website, and after each the draft's whole content (its fingerprint, as the pin once was) has changed
// and so has the counter. A write that changed the draft without moving the counter would let an
// approved plan publish what the owner never reviewed.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { websites } from '../../src/db/schema.js';
import { loadDraft } from '../../src/domain/sites/draft.js';
import { sha256OfCanonicalJson } from '../../src/kernel/fingerprint.js';
import { type Workspace, toolKit } from '../tools/kit.js';

const kit = toolKit();

async function draftState(w: Workspace) {
  const [site] = await kit.db
    .select({ rev: websites.draftRev })
    .from(websites)
    .where(eq(websites.id, w.websites.main));
  return { rev: site!.rev, content: sha256OfCanonicalJson(await loadDraft(kit.db, w.websites.main)) };
}

it('every draft write moves the draft revision the publish plan is pinned to', async () => {
  const w = await kit.workspace();
  const hero = { pageId: w.pages.home, sectionId: w.sections.hero };
  let added = '';
  let page = '';
  const writes: Array<[string, () => Record<string, unknown>]> = [
    ['update_section_text', () => ({ ...hero, text: { heading: 'Warm bread from 6 am' } })],
    [
      'replace_section_content',
      () => ({ ...hero, content: { heading: 'Rye on Fridays', subheading: 'And spelt.' }, clientRev: 2 }),
    ],
    ['set_section_layout', () => ({ ...hero, layout: { width: 'narrow' } })],
    ['set_section_hidden', () => ({ ...hero, hidden: true })],
    ['add_section', () => ({ pageId: w.pages.home, type: 'faq' })],
    ['move_section', () => ({ pageId: w.pages.home, sectionId: added, position: 0 })],
    ['update_page_seo', () => ({ pageId: w.pages.home, description: 'Bakers on the harbour front.' })],
    ['create_page', () => ({ title: 'Opening hours' })],
    ['update_page_seo', () => ({ pageId: page, title: 'When we are open' })],
    ['create_blog_post', () => ({ title: 'Easter buns', body: 'Back from Thursday.', excerpt: 'Buns!' })],
  ];
  for (const [tool, args] of writes) {
    const before = await draftState(w);
    const r = await kit.call(w.tokens.default, tool, args());
    expect(r.error, tool).toBeUndefined();
    if (tool === 'add_section') added = r.data!.sectionId as string;
    if (tool === 'create_page') page = r.data!.pageId as string;
    const after = await draftState(w);
    expect(after.content, `${tool} changed the draft`).not.toBe(before.content);
    expect(after.rev, `${tool} moved the draft revision`).toBeGreaterThan(before.rev);
  }
});
