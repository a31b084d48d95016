// replace_section_content: the advanced editor's whole-content replace, guarded by the client's rev.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sections } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();
const row = async (id: string) => (await kit.db.select().from(sections).where(eq(sections.id, id)))[0]!;

it('matches its contract snapshot', () => kit.expectContract('replace_section_content'));

it('replaces the content when clientRev is the current rev', async () => {
  const w = await kit.workspace();
  const content = { heading: 'Hello', subheading: 'Baked [daily](/about).' };
  const r = await kit.call(w.tokens.default, 'replace_section_content', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    content,
    clientRev: 1,
  });
  expect(r.data).toMatchObject({ sectionId: w.sections.hero, rev: 2, draftRevision: 2 });
  expect(await row(w.sections.hero)).toMatchObject({ content, rev: 2 });
});

it('refuses a clientRev that is not the current rev (stale_revision), writing nothing', async () => {
  const w = await kit.workspace();
  const changed = await kit.call(w.tokens.default, 'update_section_text', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    text: { heading: 'Changed in between' },
  });
  expect(changed.ok).toBe(true);
  const args = { pageId: w.pages.home, sectionId: w.sections.hero, content: { heading: 'Mine' } };
  for (const clientRev of [1, 7]) {
    await kit.expectRefusal(
      'stale_revision',
      () => kit.call(w.tokens.default, 'replace_section_content', { ...args, clientRev }),
      { tool: 'replace_section_content', companyIds: [w.companyId] },
    );
  }
  expect((await row(w.sections.hero)).content).toEqual({ heading: 'Changed in between' });
});
