// create_page: an empty draft page, its address made from the title unless given.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pages, sections } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('create_page'));

it('makes an empty draft page with a slug from the title', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.default, 'create_page', { title: 'Opening Hours & Café' });
  expect(r.ok).toBe(true);
  expect(r.data).toMatchObject({
    slug: 'opening-hours-cafe',
    title: 'Opening Hours & Café',
    draftRevision: 2,
  });
  expect(r.data?.previewUrl).toContain(`/editor/${w.websites.main}/opening-hours-cafe`);
  const [page] = await kit.db.select().from(pages).where(eq(pages.id, r.data!.pageId));
  expect(page).toMatchObject({ websiteId: w.websites.main, slug: 'opening-hours-cafe', kind: 'page' });
  expect(await kit.db.select().from(sections).where(eq(sections.pageId, r.data!.pageId))).toEqual([]);
});

it('refuses an address already in use as a conflict, writing nothing', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'conflict',
    () => kit.call(w.tokens.default, 'create_page', { title: 'Another home', slug: 'home' }),
    { tool: 'create_page', companyIds: [w.companyId] },
  );
  const homes = await kit.db
    .select()
    .from(pages)
    .where(and(eq(pages.websiteId, w.websites.main), eq(pages.slug, 'home')));
  expect(homes.map((p) => p.title)).toEqual(['Home']);
});
