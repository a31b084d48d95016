// list_draft_changes: what the draft changes against the live site, in words an owner reads.
import { expect, it } from 'vitest';
import { publishDraft } from '../../src/domain/sites/publish.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('list_draft_changes'));

it('names each change since the publish; an insert that shifts a section is not a move', async () => {
  const w = await kit.workspace();
  await publishDraft(kit.db, w.websites.main, new Date());
  const t = w.tokens.default;
  const untouched = await kit.call(t, 'list_draft_changes');
  expect(untouched.data).toMatchObject({ published: true, changes: [] });

  const cta = { heading: 'Come by', buttonLabel: 'Directions', buttonUrl: 'https://maps.example.com/x' };
  expect(
    (await kit.call(t, 'add_section', { pageId: w.pages.home, type: 'cta', content: cta, position: 0 })).ok,
  ).toBe(true);
  await kit.call(t, 'set_section_hidden', { pageId: w.pages.home, sectionId: w.sections.hero, hidden: true });
  await kit.call(t, 'update_page_seo', { pageId: w.pages.home, title: 'Fixture Bakery' });
  await kit.call(t, 'create_blog_post', { title: 'Easter buns', body: 'Back on Friday.' });
  const r = await kit.call(t, 'list_draft_changes');
  const kinds = r.data?.changes.map((c: { change: string }) => c.change);
  expect(kinds).toEqual(expect.arrayContaining(['section_added', 'section_hidden']));
  expect(kinds).not.toContain('section_moved');
  const words = r.data?.changes.map((c: { description: string }) => c.description);
  expect(words).toEqual(
    expect.arrayContaining([
      'Page "Home" (/home): search title changed.',
      expect.stringContaining('New blog post "Easter buns"'),
    ]),
  );
});

it("refuses another workspace's site (not_found) and a workspace call without websiteId", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  const foreign = await kit.expectRefusal(
    'not_found',
    () => kit.call(w.tokens.workspace, 'list_draft_changes', { websiteId: other.websites.main }),
    { tool: 'list_draft_changes', companyIds: [w.companyId, other.companyId] },
  );
  expect(foreign.data).toBeUndefined();
  await kit.expectRefusal('invalid_input', () => kit.call(w.tokens.workspace, 'list_draft_changes', {}), {
    tool: 'list_draft_changes',
    companyIds: [w.companyId],
  });
});
