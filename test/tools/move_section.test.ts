// move_section: moves a section within its draft page.
import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sections } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { type Workspace, toolKit } from './kit.js';

const kit = toolKit();

/** The home page with a text section after the hero. */
async function twoSections(w: Workspace): Promise<string> {
  const id = newId('sec');
  await kit.db.insert(sections).values({
    id,
    websiteId: w.websites.main,
    pageId: w.pages.home,
    type: 'text',
    content: { body: 'Since 1950.' },
    position: 1,
  });
  return id;
}
const order = async (pageId: string) =>
  (
    await kit.db
      .select({ id: sections.id })
      .from(sections)
      .where(eq(sections.pageId, pageId))
      .orderBy(asc(sections.position))
  ).map((s) => s.id);

it('matches its contract snapshot', () => kit.expectContract('move_section'));

it('moves the section and bumps its rev', async () => {
  const w = await kit.workspace();
  const text = await twoSections(w);
  const r = await kit.call(w.tokens.default, 'move_section', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    position: 1,
  });
  expect(r.data).toMatchObject({ from: 0, position: 1, rev: 2 });
  expect(await order(w.pages.home)).toEqual([text, w.sections.hero]);
});

it('refuses a position past the end of the page, writing nothing', async () => {
  const w = await kit.workspace();
  await twoSections(w);
  await kit.expectRefusal(
    'invalid_input',
    () =>
      kit.call(w.tokens.default, 'move_section', {
        pageId: w.pages.home,
        sectionId: w.sections.hero,
        position: 2,
      }),
    { tool: 'move_section', companyIds: [w.companyId] },
  );
});
