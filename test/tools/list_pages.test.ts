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

it('answers a page of pages at a time: every page once across the pages, in order, with their sections', async () => {
  const w = await kit.workspace();
  const titles = Array.from({ length: 7 }, (_, i) => `Extra ${i}`);
  for (const title of titles) {
    const made = await kit.call(w.tokens.default, 'create_page', { title });
    expect(made.ok, JSON.stringify(made.error)).toBe(true);
  }
  const all = await kit.call(w.tokens.default, 'list_pages');
  expect(all.data?.nextCursor).toBeNull();
  const every = (all.data!.pages as Array<{ pageId: string; title: string }>).map((p) => p.pageId);
  expect(every).toHaveLength(8);

  const seen: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10; i++) {
    const r = await kit.call(w.tokens.default, 'list_pages', { limit: 3, ...(cursor ? { cursor } : {}) });
    expect(r.ok).toBe(true);
    const got = r.data!.pages as Array<{ pageId: string; sections: unknown[] }>;
    expect(got.length).toBeLessThanOrEqual(3);
    seen.push(...got.map((p) => p.pageId));
    cursor = (r.data!.nextCursor as string | null) ?? undefined;
    if (!cursor) break;
  }
  expect(seen).toEqual(every);
  // The home page's sections come with it on the first page.
  const first = await kit.call(w.tokens.default, 'list_pages', { limit: 1 });
  expect(first.data!.pages).toMatchObject([
    { pageId: w.pages.home, sections: [{ sectionId: w.sections.hero }] },
  ]);
});

it('refuses a cursor that is not one and a limit over the most (invalid_input), writing nothing', async () => {
  const w = await kit.workspace();
  for (const args of [{ cursor: 'not-a-cursor' }, { limit: 201 }, { limit: 0 }]) {
    await kit.expectRefusal('invalid_input', () => kit.call(w.tokens.default, 'list_pages', args), {
      tool: 'list_pages',
      companyIds: [w.companyId],
    });
  }
});
