// get_section_json: the advanced editor's read of one draft section (content, layout, rev).
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { companies } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('get_section_json'));

it('returns the section as stored', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.default, 'get_section_json', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
  });
  expect(r.data).toEqual({
    sectionId: w.sections.hero,
    type: 'hero',
    content: { heading: 'Fresh bread every morning' },
    layout: {},
    rev: 1,
  });
});

it('refuses without the advanced-editor grant (advanced_editor_required), writing nothing', async () => {
  const w = await kit.workspace({ advancedEditor: false });
  await kit.expectRefusal(
    'advanced_editor_required',
    () =>
      kit.call(w.tokens.default, 'get_section_json', { pageId: w.pages.home, sectionId: w.sections.hero }),
    { tool: 'get_section_json', companyIds: [w.companyId] },
  );
  const [co] = await kit.db.select().from(companies).where(eq(companies.id, w.companyId));
  expect(co!.advancedEditor).toBe(false);
});
