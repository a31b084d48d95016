// import_site: a new unpublished draft site from a PortableSiteV1 payload.
import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pages, sections, websites } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();
const site = (sectionType = 'hero') => ({
  version: 1,
  name: 'Imported Bakery',
  businessName: 'Imported Bakery Ltd',
  pages: [
    {
      slug: 'home',
      title: 'Home',
      sections: [{ externalKey: 'home-hero', type: sectionType, content: { heading: 'Fresh bread' } }],
    },
  ],
});

it('matches its contract snapshot', () => kit.expectContract('import_site'));

it('creates the draft site with its pages and sections', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.default, 'import_site', { site: site() });
  expect(r.error).toBeUndefined();
  expect(r.data).toMatchObject({ mode: 'created', pages: 1, sections: 1 });
  const id = r.data!.websiteId as string;
  const [row] = await kit.db.select().from(websites).where(eq(websites.id, id));
  expect(row).toMatchObject({ companyId: w.companyId, name: 'Imported Bakery', publishedRev: null });
  const [home] = await kit.db.select().from(pages).where(eq(pages.websiteId, id));
  expect(home).toMatchObject({ slug: 'home', title: 'Home' });
  const secs = await kit.db
    .select()
    .from(sections)
    .where(eq(sections.pageId, home!.id))
    .orderBy(asc(sections.position));
  expect(secs).toMatchObject([
    { type: 'hero', externalKey: 'home-hero', content: { heading: 'Fresh bread' } },
  ]);
});

it('refuses a section type the service does not have (invalid_input), creating nothing', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'invalid_input',
    () => kit.call(w.tokens.default, 'import_site', { site: site('html') }),
    {
      tool: 'import_site',
      companyIds: [w.companyId],
    },
  );
});

const post = (date: string) => ({
  ...site(),
  pages: [
    ...site().pages,
    {
      slug: 'winter',
      title: 'Winter loaves',
      kind: 'post',
      date,
      sections: [{ externalKey: 'winter-body', type: 'blog_body', content: { body: 'Rye is back.' } }],
    },
  ],
});

it("keeps a post's own date, and refuses a date that is no real day, creating nothing", async () => {
  const w = await kit.workspace();
  for (const bad of ['2024-02-30', 'last Tuesday'])
    await kit.expectRefusal(
      'invalid_input',
      () => kit.call(w.tokens.default, 'import_site', { site: post(bad) }),
      {
        tool: 'import_site',
        companyIds: [w.companyId],
      },
    );
  const r = await kit.call(w.tokens.default, 'import_site', { site: post('2024-02-29') });
  expect(r.error).toBeUndefined();
  const rows = await kit.db
    .select()
    .from(pages)
    .where(eq(pages.websiteId, r.data!.websiteId as string));
  expect(rows.find((p) => p.slug === 'winter')!.createdAt.toISOString()).toBe('2024-02-29T12:00:00.000Z');
});
