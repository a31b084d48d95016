// update_section_text: edits the named text fields of one draft section; the live site stays.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sections, websites } from '../../src/db/schema.js';
import { type Workspace, toolKit } from './kit.js';
import { liveSnapshot } from '../helpers/live.js';

const kit = toolKit();
const hero = async (w: Workspace) =>
  (await kit.db.select().from(sections).where(eq(sections.id, w.sections.hero)))[0]!;
const site = async (w: Workspace) =>
  (await kit.db.select().from(websites).where(eq(websites.id, w.websites.main)))[0]!;

it('matches its contract snapshot', () => kit.expectContract('update_section_text'));

it('changes only the named text fields, bumps rev and draft revision, leaves the live snapshot', async () => {
  const w = await kit.workspace();
  await kit.db.update(websites).set({ publishedRev: 1 }).where(eq(websites.id, w.websites.main));
  const before = await hero(w);
  const r = await kit.call(w.tokens.default, 'update_section_text', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    text: { heading: 'Warm bread from 6 am', subheading: 'Now with **rye**.' },
  });
  expect(r.ok).toBe(true);
  expect(r.data).toMatchObject({ sectionId: w.sections.hero, type: 'hero', rev: before.rev + 1 });
  const after = await hero(w);
  expect(after.content).toEqual({ heading: 'Warm bread from 6 am', subheading: 'Now with **rye**.' });
  expect(after.rev).toBe(before.rev + 1);
  expect(await site(w)).toMatchObject({ draftRev: r.data!.draftRevision, publishedRev: 1 });
  expect(await liveSnapshot(kit.db, w.websites.main)).toEqual({ rev: 1, pages: [] });
  expect(r.data!.draftRevision).toBe(2);

  // An empty string removes an optional field.
  const cleared = await kit.call(w.tokens.default, 'update_section_text', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    text: { subheading: '' },
  });
  expect(cleared.ok).toBe(true);
  expect((await hero(w)).content).toEqual({ heading: 'Warm bread from 6 am' });
});

it('refuses a field that is not a text field of that type, and an emptied required heading', async () => {
  const w = await kit.workspace();
  for (const text of [{ buttonUrl: '/x' }, { body: 'x' }, { heading: '  ' }]) {
    const args = { pageId: w.pages.home, sectionId: w.sections.hero, text };
    await kit.expectRefusal('invalid_input', () => kit.call(w.tokens.default, 'update_section_text', args), {
      tool: 'update_section_text',
      companyIds: [w.companyId],
    });
  }
});

it("refuses another workspace's section as not found, writing nothing", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  const args = { pageId: w.pages.home, sectionId: w.sections.hero, text: { heading: 'Hijacked' } };
  await kit.expectRefusal('not_found', () => kit.call(other.tokens.default, 'update_section_text', args), {
    tool: 'update_section_text',
    companyIds: [other.companyId, w.companyId],
  });
});

it('takes a table and a fenced code block, and refuses what is outside the Markdown subset by name, writing nothing', async () => {
  const w = await kit.workspace();
  const added = await kit.call(w.tokens.default, 'add_section', {
    pageId: w.pages.home,
    type: 'text',
    content: { body: 'Hours below.' },
  });
  const textId = added.data!.sectionId as string;
  const body = '| Day | Opens |\n|---|---|\n| Mon | 7:00 |\n\n```\nbake --rye\n```';
  const ok = await kit.call(w.tokens.default, 'update_section_text', {
    pageId: w.pages.home,
    sectionId: textId,
    text: { body },
  });
  expect(ok.ok, JSON.stringify(ok.error)).toBe(true);
  const [row] = await kit.db.select().from(sections).where(eq(sections.id, textId));
  expect((row!.content as { body: string }).body).toBe(body);
  for (const [bad, named] of [
    ['See [the menu][m].\n\n[m]: /menu', 'a reference-style link definition'],
    ['Was ~~5~~ now 4', '~~strikethrough~~'],
    ['Steps:\n\n    make bread', 'an indented code block'],
  ] as const) {
    const args = { pageId: w.pages.home, sectionId: textId, text: { body: bad } };
    const env = await kit.expectRefusal(
      'invalid_input',
      () => kit.call(w.tokens.default, 'update_section_text', args),
      { tool: 'update_section_text', companyIds: [w.companyId] },
    );
    expect(env.error?.message).toContain(`text.body: ${named}`);
  }
});
