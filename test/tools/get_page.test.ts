// get_page: one draft page with its sections' content and revisions.
import { expect, it } from 'vitest';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('get_page'));

it('returns the page with each section’s content and rev', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.default, 'get_page', { pageId: w.pages.home });
  expect(r.data).toMatchObject({ pageId: w.pages.home, slug: 'home', kind: 'page' });
  expect(r.data?.sections).toMatchObject([
    { sectionId: w.sections.hero, type: 'hero', rev: 1, content: { heading: 'Fresh bread every morning' } },
  ]);
});

it("refuses another workspace's page exactly as a missing one (not_found), writing nothing", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  const foreign = await kit.expectRefusal(
    'not_found',
    () => kit.call(w.tokens.default, 'get_page', { pageId: other.pages.home }),
    { tool: 'get_page', companyIds: [w.companyId, other.companyId] },
  );
  const missing = await kit.call(w.tokens.default, 'get_page', { pageId: 'page_doesnotexist00' });
  expect(foreign.error).toEqual(missing.error);
});
