// add_section: adds a section to a draft page at a position, renumbering the others.
import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sections } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();
const order = (pageId: string) =>
  kit.db
    .select({ id: sections.id, type: sections.type, content: sections.content, position: sections.position })
    .from(sections)
    .where(eq(sections.pageId, pageId))
    .orderBy(asc(sections.position));

it('matches its contract snapshot', () => kit.expectContract('add_section'));

it('inserts at a position and renumbers; without content it adds a placeholder of the type', async () => {
  const w = await kit.workspace();
  const cta = { heading: 'Come by', buttonLabel: 'Directions', buttonUrl: 'https://maps.example.com/harbor' };
  const r = await kit.call(w.tokens.default, 'add_section', {
    pageId: w.pages.home,
    type: 'cta',
    content: cta,
    position: 0,
  });
  expect(r.ok).toBe(true);
  expect(r.data).toMatchObject({ type: 'cta', position: 0, rev: 1, draftRevision: 2 });
  const faq = await kit.call(w.tokens.default, 'add_section', { pageId: w.pages.home, type: 'faq' });
  expect(faq.data).toMatchObject({ type: 'faq', position: 2 });
  const rows = await order(w.pages.home);
  expect(rows.map((s) => [s.id, s.position])).toEqual([
    [r.data!.sectionId, 0],
    [w.sections.hero, 1],
    [faq.data!.sectionId, 2],
  ]);
  expect(rows[0]!.content).toEqual(cta);
});

it('refuses a type that does not exist, and an image without content, writing nothing', async () => {
  const w = await kit.workspace();
  for (const args of [
    { pageId: w.pages.home, type: 'html', content: {} },
    { pageId: w.pages.home, type: 'image' },
  ]) {
    await kit.expectRefusal('invalid_input', () => kit.call(w.tokens.default, 'add_section', args), {
      tool: 'add_section',
      companyIds: [w.companyId],
    });
  }
});
