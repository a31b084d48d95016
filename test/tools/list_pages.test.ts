// list_pages: the draft's pages with their sections' ids and types.
import { expect, it } from 'vitest';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('list_pages'));

it('lists the pages with their section ids', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.default, 'list_pages');
  expect(r.data?.pages).toMatchObject([
    {
      pageId: w.pages.home,
      slug: 'home',
      title: 'Home',
      sections: [{ sectionId: w.sections.hero, type: 'hero' }],
    },
  ]);
});

it('refuses an unknown argument instead of ignoring it (invalid_input), writing nothing', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'invalid_input',
    () => kit.call(w.tokens.default, 'list_pages', { profileId: 'someone-else' }),
    { tool: 'list_pages', companyIds: [w.companyId] },
  );
});
