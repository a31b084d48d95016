// list_pages: the draft's pages with their sections' ids and types.
import { expect, it } from 'vitest';
import { pages } from '../../src/db/schema.js';
import { LIST_PAGES_DEFAULT } from '../../src/domain/pages/read.js';
import { newId } from '../../src/kernel/ids.js';
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

it('answers a hundred pages a call: every page once across the calls, in order, with their sections', async () => {
  const w = await kit.workspace();
  const extra = Array.from({ length: LIST_PAGES_DEFAULT + 4 }, (_, i) => ({
    id: newId('page'),
    websiteId: w.websites.main,
    slug: `extra-${i}`,
    title: `Extra ${i}`,
    position: 10 + i,
  }));
  await kit.db.insert(pages).values(extra);
  const seen: string[] = [];
  let cursor: string | undefined;
  let calls = 0;
  do {
    const r = await kit.call(w.tokens.default, 'list_pages', cursor ? { cursor } : {});
    expect(r.ok).toBe(true);
    const got = r.data!.pages as Array<{ pageId: string }>;
    expect(got.length).toBeLessThanOrEqual(LIST_PAGES_DEFAULT);
    seen.push(...got.map((p) => p.pageId));
    cursor = r.data!.nextCursor as string | undefined;
    calls += 1;
  } while (cursor && calls < 5);
  expect(calls).toBe(2);
  expect(seen).toEqual([w.pages.home, ...extra.map((p) => p.id)]);
  // The home page's sections come with it on the first call.
  const first = await kit.call(w.tokens.default, 'list_pages');
  expect(first.data!.pages[0]).toMatchObject({
    pageId: w.pages.home,
    sections: [{ sectionId: w.sections.hero }],
  });
});

it('refuses a cursor that is not one, one over its length, and an argument it does not take (invalid_input), writing nothing', async () => {
  const w = await kit.workspace();
  for (const args of [{ cursor: 'not-a-cursor' }, { cursor: 'x'.repeat(201) }, { limit: 3 }]) {
    await kit.expectRefusal('invalid_input', () => kit.call(w.tokens.default, 'list_pages', args), {
      tool: 'list_pages',
      companyIds: [w.companyId],
    });
  }
});
