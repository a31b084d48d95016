// update_page_seo: sets or clears a draft page's search title and description.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pages } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('update_page_seo'));

it('sets and clears the search fields of the draft page', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.default, 'update_page_seo', {
    pageId: w.pages.home,
    title: 'Fixture Bakery',
    description: 'Three generations of bakers on the harbour front.',
  });
  expect(r.ok).toBe(true);
  expect(r.data?.seo).toEqual({
    title: 'Fixture Bakery',
    description: 'Three generations of bakers on the harbour front.',
  });
  const cleared = await kit.call(w.tokens.default, 'update_page_seo', {
    pageId: w.pages.home,
    description: '',
  });
  expect(cleared.data?.seo).toEqual({ title: 'Fixture Bakery', description: null });
  const [page] = await kit.db.select().from(pages).where(eq(pages.id, w.pages.home));
  expect(page).toMatchObject({ seoTitle: 'Fixture Bakery', seoDescription: null });
});

it('refuses markup in the search title, writing nothing', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'invalid_input',
    () => kit.call(w.tokens.default, 'update_page_seo', { pageId: w.pages.home, title: '<b>x</b>' }),
    { tool: 'update_page_seo', companyIds: [w.companyId] },
  );
});
