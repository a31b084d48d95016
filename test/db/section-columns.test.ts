// The columns the database keeps in each section's row (migration 0019): `digest`, what the change list
// compares with the live site's, and `placeholder`, whether any text of the content is add_section's
// placeholder (the texts of PLACEHOLDER in src/domain/sections/placeholders.ts, which the migration's
// function spells again). Both follow every write of the row.
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sections } from '../../src/db/schema.js';
import { PLACEHOLDER } from '../../src/domain/sections/placeholders.js';
import { toolKit } from '../tools/kit.js';

const kit = toolKit();

const row = async (id: string) =>
  (
    await kit.db
      .select({
        digest: sections.digest,
        placeholder: sections.placeholder,
        expected: sql<string>`md5(${sections.content}::text || '|' || ${sections.layout}::text)`,
      })
      .from(sections)
      .where(eq(sections.id, id))
  )[0]!;

it('every placeholder text, anywhere in the content and with spaces around it, flags the section', async () => {
  const w = await kit.workspace();
  for (const text of Object.values(PLACEHOLDER)) {
    const added = await kit.call(w.tokens.default, 'add_section', {
      pageId: w.pages.home,
      type: 'faq',
      content: { heading: 'Questions', items: [{ question: 'Open on Sundays?', answer: `  ${text} ` }] },
    });
    expect(added.error, text).toBeUndefined();
    expect((await row(added.data!.sectionId as string)).placeholder, text).toBe(true);
  }
  // Words that only contain a placeholder's text are not it.
  const real = await kit.call(w.tokens.default, 'add_section', {
    pageId: w.pages.home,
    type: 'text',
    content: { body: 'New text. And our real opening hours.' },
  });
  expect((await row(real.data!.sectionId as string)).placeholder).toBe(false);
});

it('both columns follow a write of the row: the flag clears and the digest moves with the content', async () => {
  const w = await kit.workspace();
  const added = await kit.call(w.tokens.default, 'add_section', { pageId: w.pages.home, type: 'text' });
  const id = added.data!.sectionId as string;
  const before = await row(id);
  expect(before.placeholder).toBe(true);
  expect(before.digest).toBe(before.expected);
  const edit = await kit.call(w.tokens.default, 'update_section_text', {
    pageId: w.pages.home,
    sectionId: id,
    text: { body: 'Rye on Fridays.' },
  });
  expect(edit.ok).toBe(true);
  const after = await row(id);
  expect(after.placeholder).toBe(false);
  expect(after.digest).toBe(after.expected);
  expect(after.digest).not.toBe(before.digest);
  const layout = await kit.call(w.tokens.default, 'set_section_layout', {
    pageId: w.pages.home,
    sectionId: id,
    layout: { width: 'narrow' },
  });
  expect(layout.ok).toBe(true);
  const laidOut = await row(id);
  expect(laidOut.digest).toBe(laidOut.expected);
  expect(laidOut.digest).not.toBe(after.digest);
});
