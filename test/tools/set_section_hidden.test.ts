// set_section_hidden: hides a section from the page (kept in the draft) or shows it again.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sections, websiteMembers } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('set_section_hidden'));

it('hides the section in the draft and shows it again', async () => {
  const w = await kit.workspace();
  const args = { pageId: w.pages.home, sectionId: w.sections.hero };
  const hid = await kit.call(w.tokens.default, 'set_section_hidden', { ...args, hidden: true });
  expect(hid.data).toMatchObject({ hidden: true, rev: 2 });
  const row = async () => (await kit.db.select().from(sections).where(eq(sections.id, w.sections.hero)))[0]!;
  expect(await row()).toMatchObject({ hidden: true, rev: 2 });
  const shown = await kit.call(w.tokens.default, 'set_section_hidden', { ...args, hidden: false });
  expect(shown.data).toMatchObject({ hidden: false, rev: 3 });
  expect(await row()).toMatchObject({ hidden: false, rev: 3 });
});

it('refuses a connection whose creator is now a viewer (role_insufficient), writing nothing', async () => {
  const w = await kit.workspace();
  await kit.db
    .update(websiteMembers)
    .set({ role: 'viewer' })
    .where(and(eq(websiteMembers.websiteId, w.websites.main), eq(websiteMembers.userId, w.users.owner.id)));
  await kit.expectRefusal(
    'role_insufficient',
    () =>
      kit.call(w.tokens.default, 'set_section_hidden', {
        pageId: w.pages.home,
        sectionId: w.sections.hero,
        hidden: true,
      }),
    { tool: 'set_section_hidden', companyIds: [w.companyId] },
  );
});
