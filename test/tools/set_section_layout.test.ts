// set_section_layout: the advanced editor's layout tokens; nothing else (no free CSS).
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sections } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();
const row = async (id: string) => (await kit.db.select().from(sections).where(eq(sections.id, id)))[0]!;

it('matches its contract snapshot', () => kit.expectContract('set_section_layout'));

it('sets the layout tokens and bumps the rev', async () => {
  const w = await kit.workspace();
  const layout = { width: 'narrow', paddingY: 'xl', hideOnMobile: true };
  const r = await kit.call(w.tokens.default, 'set_section_layout', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    layout,
  });
  expect(r.data).toMatchObject({ rev: 2, layout });
  expect(await row(w.sections.hero)).toMatchObject({ layout, rev: 2 });
});

it('refuses a layout with free CSS or out-of-range tokens, writing nothing', async () => {
  const w = await kit.workspace();
  for (const layout of [{ width: 'huge' }, { css: 'color:red' }, { paddingY: 'lg', style: 'x' }]) {
    await kit.expectRefusal(
      'invalid_input',
      () =>
        kit.call(w.tokens.default, 'set_section_layout', {
          pageId: w.pages.home,
          sectionId: w.sections.hero,
          layout,
        }),
      { tool: 'set_section_layout', companyIds: [w.companyId] },
    );
  }
});
