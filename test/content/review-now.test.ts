// The publish review read from what differs (src/domain/pages/review-now.ts) is the review of the whole
// draft against the whole live site (reviewPublish, pure): here a published site gets every kind of
// change (an edited, a moved, a hidden, an added and a removed section, a page's fields, a new page, a
// removed page, a new empty page, placeholder text) and both reviews, and both change lists, are equal.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { PublishedSnapshot } from '../../src/db/page-shape.js';
import { pages, sections, websites } from '../../src/db/schema.js';
import { diffDraft } from '../../src/domain/pages/draft-changes.js';
import { reviewPublish } from '../../src/domain/pages/publish-review.js';
import { publishReviewNow } from '../../src/domain/pages/review-now.js';
import { loadDraft } from '../../src/domain/sites/draft.js';
import { publishDraft } from '../../src/domain/sites/publish.js';
import { toolKit } from '../tools/kit.js';
import { liveSnapshot } from '../helpers/live.js';

const kit = toolKit();

async function both(websiteId: string) {
  const [row] = await kit.db.select().from(websites).where(eq(websites.id, websiteId));
  const draft = await loadDraft(kit.db, websiteId);
  const live = await liveSnapshot(kit.db, websiteId);
  const now = await publishReviewNow(kit.db, row!);
  return { whole: { changes: diffDraft(draft, live), review: reviewPublish(draft, live) }, now };
}

it('a first publish: every page is new, reviewed alike', async () => {
  const w = await kit.workspace();
  const { whole, now } = await both(w.websites.main);
  expect(whole.changes.length).toBeGreaterThan(0);
  expect(now).toEqual(whole);
});

it('every kind of change on a live site, reviewed from the changed pages alone as from the whole', async () => {
  const w = await kit.workspace();
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await kit.call(w.tokens.default, tool, args);
    expect(r.error, tool).toBeUndefined();
    return r.data!;
  };
  // A live site of three pages: home (hero + two sections), a second and a third page.
  const text = (
    await call('add_section', { pageId: w.pages.home, type: 'text', content: { body: 'Since 1950.' } })
  ).sectionId as string;
  const faq = (await call('add_section', { pageId: w.pages.home, type: 'faq' })).sectionId as string;
  const second = (await call('create_page', { title: 'Opening hours' })).pageId as string;
  await call('add_section', { pageId: second, type: 'text', content: { body: 'Weekdays 6 to 6.' } });
  const third = (await call('create_page', { title: 'Old offers' })).pageId as string;
  await call('add_section', { pageId: third, type: 'text', content: { body: 'Gone soon.' } });
  await kit.db.transaction((tx) => publishDraft(tx, w.websites.main, new Date()));
  expect((await both(w.websites.main)).now.changes).toEqual([]);

  // Every kind of change.
  await call('update_section_text', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    text: { heading: 'Warm bread from 6 am' },
  });
  await call('move_section', { pageId: w.pages.home, sectionId: faq, position: 0 });
  await call('set_section_hidden', { pageId: w.pages.home, sectionId: text, hidden: true });
  await call('add_section', { pageId: second, type: 'text' }); // placeholder text, on the second page
  await call('update_page_seo', { pageId: second, title: 'When we are open' });
  await kit.db.delete(sections).where(eq(sections.pageId, third));
  await kit.db.delete(pages).where(eq(pages.id, third));
  await call('create_page', { title: 'Coming soon' }); // a page with nothing visible
  await call('create_blog_post', { title: 'Easter buns', body: 'Back from Thursday.', excerpt: 'Buns!' });

  const { whole, now } = await both(w.websites.main);
  const kinds = new Set(whole.changes.map((c) => c.change));
  for (const k of [
    'section_updated',
    'section_moved',
    'section_hidden',
    'section_added',
    'page_updated',
    'page_removed',
    'page_added',
  ]) {
    expect(kinds, k).toContain(k);
  }
  expect(whole.review.placeholders.length).toBeGreaterThan(0);
  expect(whole.review.emptyPages.map((p) => p.title)).toContain('Coming soon');
  expect(now).toEqual(whole);
});

it('a publish builds the live snapshot in the database exactly as the draft reads, sections hidden and all', async () => {
  const w = await kit.workspace();
  const post = await kit.call(w.tokens.default, 'create_blog_post', {
    title: 'Spring news',
    body: 'Rye is back.',
    excerpt: 'Rye',
  });
  expect(post.error).toBeUndefined();
  const empty = await kit.call(w.tokens.default, 'create_page', { title: 'Nothing yet' });
  expect(empty.error).toBeUndefined();
  const hidden = await kit.call(w.tokens.default, 'set_section_hidden', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    hidden: true,
  });
  expect(hidden.error).toBeUndefined();
  const draft = await loadDraft(kit.db, w.websites.main);
  const [before] = await kit.db.select().from(websites).where(eq(websites.id, w.websites.main));
  const made = await kit.db.transaction((tx) => publishDraft(tx, w.websites.main, new Date()));
  const [row] = await kit.db.select().from(websites).where(eq(websites.id, w.websites.main));
  expect(made).toEqual({ rev: before!.draftRev, pages: draft.length });
  expect(row!.publishedRev).toBe(before!.draftRev);
  // Equal as values (JSON round trip: what a reader of the column gets), page and section order included.
  expect(await liveSnapshot(kit.db, w.websites.main)).toEqual(
    JSON.parse(JSON.stringify({ rev: before!.draftRev, pages: draft })),
  );
  expect(draft.some((p) => p.sections.length === 0)).toBe(true);
  expect(draft.some((p) => p.kind === 'post')).toBe(true);
});
