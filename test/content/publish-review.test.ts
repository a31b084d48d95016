// reviewPublish (R-PLAN-3): what a publish changes, field by field, from the draft and the live
// snapshot. Pure; the approval page's browser test shows it rendered.
import { describe, expect, it } from 'vitest';
import { reviewPublish, sectionText } from '../../src/domain/pages/publish-review.js';
import type { SnapshotPage } from '../../src/domain/sites/draft.js';

const sec = (id: string, content: Record<string, unknown>, hidden = false) => ({
  id,
  type: 'text',
  content,
  layout: {},
  hidden,
});
const page = (
  id: string,
  sections: SnapshotPage['sections'],
  over: Partial<SnapshotPage> = {},
): SnapshotPage => ({
  id,
  slug: id,
  title: id,
  kind: 'page',
  excerpt: null,
  seoTitle: null,
  seoDescription: null,
  sections,
  ...over,
});

describe('reviewPublish', () => {
  it('lists only the changed fields of an edited section, with live and draft text', () => {
    const live = [page('home', [sec('s1', { heading: 'Hi', body: 'Same body' })])];
    const draft = [page('home', [sec('s1', { heading: 'Hello', body: 'Same body' })])];
    expect(reviewPublish(draft, { pages: live }).sections).toEqual([
      expect.objectContaining({
        sectionId: 's1',
        change: 'edited',
        fields: [{ label: 'Heading', before: 'Hi', after: 'Hello', format: 'text' }],
      }),
    ]);
  });

  it('reports removed pages and sections, sections shown again, and page title and search text', () => {
    const live = [
      page('home', [sec('a', { body: 'A' }), sec('b', { body: 'B' }), sec('c', { body: 'C' }, true)]),
      page('old', [sec('o', { body: 'O' })]),
    ];
    const draft = [
      page('home', [sec('a', { body: 'A' }), sec('c', { body: 'C' })], {
        title: 'Welcome',
        seoDescription: 'Fresh bread',
      }),
    ];
    const r = reviewPublish(draft, { pages: live });
    expect(r.removedPages).toEqual([{ title: 'old', slug: 'old', kind: 'page' }]);
    expect(r.pageFields.map((f) => f.field)).toEqual([
      { label: 'Title', before: 'home', after: 'Welcome', format: 'text' },
      { label: 'Search description', before: null, after: 'Fresh bread', format: 'text' },
    ]);
    const b = r.sections.find((s) => s.sectionId === 'b')!;
    expect(b).toMatchObject({
      change: 'removed',
      fields: [{ label: 'Body', before: 'B', after: null, format: 'markdown' }],
    });
    const c = r.sections.find((s) => s.sectionId === 'c')!;
    expect(c).toMatchObject({ change: 'unchanged', visibility: 'shown', moved: null, fields: [] });
  });

  it('treats a never-published site as all new', () => {
    const r = reviewPublish([page('home', [sec('a', { body: 'A' })])], null);
    expect(r.newPages).toEqual([{ title: 'home', slug: 'home', kind: 'page', sections: 1 }]);
    expect(r.sections[0]).toMatchObject({
      change: 'added',
      fields: [{ label: 'Body', before: null, after: 'A', format: 'markdown' }],
    });
  });

  it('labels nested content and layout in reading order, and says which fields are Markdown', () => {
    const text = sectionText(
      { items: [{ title: 'T', body: 'B' }], buttonLabel: 'Go' },
      { width: 'wide' },
      'features',
    );
    expect([...text.keys()]).toEqual(['Items 1 › Title', 'Items 1 › Body', 'Button label', 'Layout › Width']);
    expect([...text.values()].map((l) => l.format)).toEqual(['text', 'markdown', 'text', 'text']);
    expect(sectionText({ subheading: 'S', heading: 'H' }, {}, 'hero').get('Subheading')?.format).toBe(
      'inline',
    );
  });

  it('flags placeholder text in visible draft sections, not in hidden ones', () => {
    const draft = [
      page('home', [
        sec('a', { body: 'New text.' }),
        sec('b', { body: 'Real words.' }),
        sec('c', { body: 'New text.' }, true),
      ]),
    ];
    expect(reviewPublish(draft, null).placeholders).toEqual([
      { page: 'home', slug: 'home', sectionId: 'a', type: 'text', field: 'body', text: 'New text.' },
    ]);
    expect(reviewPublish([page('home', [sec('b', { body: 'Real words.' })])], null).placeholders).toEqual([]);
  });
});
