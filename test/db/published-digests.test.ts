// The live site's digests (migration 0020): a trigger rebuilds a website's published_page_digests and
// published_section_digests whenever its snapshot is written, by whatever writer, and the change list
// names from them exactly the pages whose draft differs (changedPageIds, src/domain/sites/digest.ts).
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  pages,
  publishedPageDigests,
  publishedSectionDigests,
  sections,
  websites,
} from '../../src/db/schema.js';
import { changedPageIds } from '../../src/domain/sites/digest.js';
import { publishDraft, unpublishSite } from '../../src/domain/sites/publish.js';
import { toolKit } from '../tools/kit.js';

const kit = toolKit();

const liveSections = (websiteId: string) =>
  kit.db
    .select({
      id: publishedSectionDigests.sectionId,
      pageId: publishedSectionDigests.pageId,
      hidden: publishedSectionDigests.hidden,
      digest: publishedSectionDigests.digest,
    })
    .from(publishedSectionDigests)
    .where(eq(publishedSectionDigests.websiteId, websiteId))
    .orderBy(publishedSectionDigests.sectionId);

const draftSections = (websiteId: string) =>
  kit.db
    .select({ id: sections.id, pageId: sections.pageId, hidden: sections.hidden, digest: sections.digest })
    .from(sections)
    .where(eq(sections.websiteId, websiteId))
    .orderBy(sections.id);

const publish = (websiteId: string) => kit.db.transaction((tx) => publishDraft(tx, websiteId, new Date()));

it('follow every write of the snapshot: publish, unpublish, and a snapshot written by hand', async () => {
  const w = await kit.workspace();
  const site = w.websites.main;
  await publish(site);
  const draft = await draftSections(site);
  expect(draft.length).toBeGreaterThan(0);
  expect(await liveSections(site)).toEqual(draft);

  await kit.db.transaction((tx) => unpublishSite(tx, site, new Date()));
  expect(await liveSections(site)).toEqual([]);
  expect(
    await kit.db.select().from(publishedPageDigests).where(eq(publishedPageDigests.websiteId, site)),
  ).toEqual([]);

  // Any other writer of the column: a snapshot of one page with one hidden section.
  await kit.db
    .update(websites)
    .set({
      publishedRev: 1,
      published: {
        rev: 1,
        pages: [
          {
            id: 'pg_by_hand',
            slug: 'only',
            title: 'Only',
            kind: 'page',
            seoTitle: null,
            seoDescription: null,
            sections: [
              { id: 'sec_by_hand', type: 'text', content: { body: 'Hi' }, layout: {}, hidden: true },
            ],
          },
        ],
      },
    })
    .where(eq(websites.id, site));
  const [expected] = (
    (await kit.db.execute(
      sql`select md5(${JSON.stringify({ body: 'Hi' })}::jsonb::text || '|' || '{}'::jsonb::text) as d`,
    )) as unknown as {
      rows: Array<{ d: string }>;
    }
  ).rows;
  expect(await liveSections(site)).toEqual([
    { id: 'sec_by_hand', pageId: 'pg_by_hand', hidden: true, digest: expected!.d },
  ]);
});

it('name exactly the pages whose draft differs from the live site', async () => {
  const w = await kit.workspace();
  const site = w.websites.main;
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await kit.call(w.tokens.default, tool, args);
    expect(r.error, tool).toBeUndefined();
    return r.data!;
  };
  const page = async (title: string) => {
    const id = (await call('create_page', { title })).pageId as string;
    const a = (await call('add_section', { pageId: id, type: 'text', content: { body: `${title} one` } }))
      .sectionId as string;
    const b = (await call('add_section', { pageId: id, type: 'text', content: { body: `${title} two` } }))
      .sectionId as string;
    return { id, a, b };
  };
  const [edited, moved, hidden, renamed, removed, untouched] = [
    await page('Edited'),
    await page('Moved'),
    await page('Hidden'),
    await page('Renamed'),
    await page('Removed'),
    await page('Untouched'),
  ];
  // Not live yet: every page is new.
  expect((await changedPageIds(kit.db, site)).length).toBeGreaterThanOrEqual(6);
  await publish(site);
  expect(await changedPageIds(kit.db, site)).toEqual([]);

  await call('update_section_text', { pageId: edited!.id, sectionId: edited!.a, text: { body: 'Changed' } });
  await call('move_section', { pageId: moved!.id, sectionId: moved!.b, position: 0 });
  await call('set_section_hidden', { pageId: hidden!.id, sectionId: hidden!.a, hidden: true });
  await call('update_page_seo', { pageId: renamed!.id, title: 'A new search title' });
  // A page the owner deleted in the console (its rows gone, as deletePage leaves them).
  await kit.db.delete(sections).where(eq(sections.pageId, removed!.id));
  await kit.db.delete(pages).where(eq(pages.id, removed!.id));
  const added = (await call('create_page', { title: 'Added' })).pageId as string;

  const named = await changedPageIds(kit.db, site);
  expect(new Set(named)).toEqual(
    new Set([edited!.id, moved!.id, hidden!.id, renamed!.id, removed!.id, added]),
  );
  expect(named).not.toContain(untouched!.id);

  // Published again: nothing differs.
  await publish(site);
  expect(await changedPageIds(kit.db, site)).toEqual([]);
});

it('are brought to a new snapshot in place: a publish of one edit rewrites that section’s row alone', async () => {
  const w = await kit.workspace();
  const site = w.websites.main;
  const added = await kit.call(w.tokens.default, 'add_section', {
    pageId: w.pages.home,
    type: 'text',
    content: { body: 'Since 1950.' },
  });
  expect(added.error).toBeUndefined();
  await publish(site);
  // A row's xmin is the transaction that last wrote it.
  const versions = async () =>
    new Map(
      (
        (await kit.db.execute(
          sql`select section_id, xmin::text as v from published_section_digests where website_id = ${site}`,
        )) as unknown as { rows: Array<{ section_id: string; v: string }> }
      ).rows.map((r) => [r.section_id, r.v]),
    );
  const before = await versions();
  expect(before.size).toBeGreaterThan(1);
  const edit = await kit.call(w.tokens.default, 'update_section_text', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    text: { heading: 'Rye on Fridays' },
  });
  expect(edit.error).toBeUndefined();
  await publish(site);
  const after = await versions();
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  const rewritten = [...after].filter(([id, v]) => before.get(id) !== v).map(([id]) => id);
  expect(rewritten).toEqual([w.sections.hero]);
  expect(await liveSections(site)).toEqual(await draftSections(site));
});
