// list_draft_changes compares digests computed in the database; this checks it says exactly what the
// plain content comparison says, across every kind of change, and reads as an owner would want.
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { type Demo, seedDemo } from '../../src/demo/seed.js';
import { pages, sections, websites } from '../../src/db/schema.js';
import type { Services } from '../../src/domain/context.js';
import { diffDraft } from '../../src/domain/pages/draft-changes.js';
import { draftChanges } from '../../src/domain/pages/read.js';
import { createPage, updatePageSeo } from '../../src/domain/pages/write.js';
import {
  addSection,
  moveSection,
  setSectionHidden,
  setSectionLayout,
  updateSectionText,
} from '../../src/domain/sections/edit.js';
import { loadDraft } from '../../src/domain/sites/draft.js';
import { uniqueTag } from '../helpers/db.js';
import { inSite, testServices } from '../helpers/domain.js';
import { liveSnapshot } from '../helpers/live.js';

let services: Services;
let d: Demo;
const db = () => services.db;
beforeAll(async () => {
  services = await testServices();
  d = await seedDemo(services.db, { tag: uniqueTag() });
});

async function both(websiteId: string) {
  const [site] = await db().select().from(websites).where(eq(websites.id, websiteId));
  const viaDigest = await draftChanges(db(), site!);
  const viaContent = diffDraft(await loadDraft(db(), websiteId), await liveSnapshot(db(), websiteId));
  return { viaDigest, viaContent };
}

it('matches the content comparison after edits of every kind', async () => {
  const about = (await firstSection(d.pages.about))!;
  const contact = (await firstSection(d.pages.contact))!;
  await inSite(
    services,
    { companyId: d.companyId, websiteId: d.websites.main, userId: d.users.owner.id },
    async (ctx) => {
      await updateSectionText(ctx, {
        pageId: d.pages.home,
        sectionId: d.sections.hero,
        text: { heading: 'New' },
      });
      await setSectionLayout(ctx, { pageId: d.pages.about, sectionId: about, layout: { width: 'wide' } });
      await moveSection(ctx, { pageId: d.pages.home, sectionId: d.sections.hero, position: 4 });
      await setSectionHidden(ctx, { pageId: d.pages.contact, sectionId: contact, hidden: true });
      await addSection(ctx, { pageId: d.pages.about, type: 'text', content: { body: 'More' } });
      await updatePageSeo(ctx, { pageId: d.pages.post, description: 'Rye!' });
      await createPage(ctx, { title: 'Gift cards' });
    },
  );
  await db().delete(sections).where(eq(sections.pageId, d.pages.contact)); // removed in the app
  await db().delete(pages).where(eq(pages.id, d.pages.contact));
  const { viaDigest, viaContent } = await both(d.websites.main);
  expect(viaDigest).toEqual(viaContent);
  const words = viaDigest.map((c) => c.description);
  expect(words).toEqual(
    expect.arrayContaining([
      'Page "Home" (/home): hero section edited.',
      'Page "Home" (/home): hero section moved from position 1 to 5.',
      'Page "About" (/about): text section edited.',
      'Page "About" (/about): new text section at position 3.',
      'Page "Our new sourdough" (/blog/new-sourdough): search description changed.',
      'New page "Gift cards" (/gift-cards) with 0 sections.',
      'Page "Contact" (/contact) is no longer in the draft.',
    ]),
  );
});

it('reports every page as new on a site never published', async () => {
  const { viaDigest, viaContent } = await both(d.websites.events);
  expect(viaDigest).toEqual(viaContent);
  expect(viaDigest.map((c) => c.change)).toEqual(['page_added']);
});

async function firstSection(pageId: string) {
  const [row] = await db()
    .select({ id: sections.id })
    .from(sections)
    .where(eq(sections.pageId, pageId))
    .limit(1);
  return row?.id;
}
