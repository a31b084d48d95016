// The live site, a row per page and per section digest (src/domain/sites/publish.ts): a publish leaves
// it equal to the draft, writing the pages that changed alone, and the change list names from it exactly
// the pages whose draft differs (changedPageIds, src/domain/sites/digest.ts).
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  pages,
  publishedPageDigests,
  publishedSectionDigests,
  sections,
  websites,
} from '../../src/db/schema.js';
import { diffDraft } from '../../src/domain/pages/draft-changes.js';
import { draftChanges } from '../../src/domain/pages/read.js';
import { changedPageIds } from '../../src/domain/sites/digest.js';
import { loadDraft } from '../../src/domain/sites/draft.js';
import { publishDraft, unpublishSite } from '../../src/domain/sites/publish.js';
import { liveSnapshot } from '../helpers/live.js';
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

it('follow publish and unpublish, and the draft’s page order', async () => {
  const w = await kit.workspace();
  const site = w.websites.main;
  const about = await kit.call(w.tokens.default, 'create_page', { title: 'About' });
  expect(about.error).toBeUndefined();
  await publish(site);
  const draft = await draftSections(site);
  expect(draft.length).toBeGreaterThan(0);
  expect(await liveSections(site)).toEqual(draft);

  await kit.db.transaction((tx) => unpublishSite(tx, site, new Date()));
  expect(await liveSections(site)).toEqual([]);
  expect(
    await kit.db.select().from(publishedPageDigests).where(eq(publishedPageDigests.websiteId, site)),
  ).toEqual([]);

  // Live again, then one of the draft's pages moved to the end: the live list follows the draft.
  await publish(site);
  const [first] = await kit.db.select({ id: pages.id }).from(pages).where(eq(pages.websiteId, site)).limit(1);
  await kit.db.update(pages).set({ position: 1_000 }).where(eq(pages.id, first!.id));
  const live = await publish(site);
  const now = await loadDraft(kit.db, site);
  expect(live.pages).toBe(now.length);
  expect(await liveSnapshot(kit.db, site)).toEqual(JSON.parse(JSON.stringify({ rev: live.rev, pages: now })));
  expect(now.length).toBeGreaterThan(1);
  expect(now.at(-1)!.id).toBe(first!.id);
  // Each page's digest is that of the page as it is live.
  const digests = (await kit.db.execute(
    sql`select count(*)::int as n from published_page_digests
        where website_id = ${site} and digest is distinct from md5(page::text)`,
  )) as unknown as { rows: Array<{ n: number }> };
  expect(digests.rows[0]!.n).toBe(0);
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

it('are written for the changed page alone: a publish of one edit rewrites that page’s rows', async () => {
  const w = await kit.workspace();
  const site = w.websites.main;
  const added = await kit.call(w.tokens.default, 'add_section', {
    pageId: w.pages.home,
    type: 'text',
    content: { body: 'Since 1950.' },
  });
  expect(added.error).toBeUndefined();
  const about = await kit.call(w.tokens.default, 'create_page', { title: 'About' });
  expect(about.error).toBeUndefined();
  await publish(site);
  // A row's xmin is the transaction that last wrote it.
  const versions = async (table: 'published_section_digests' | 'published_page_digests') =>
    new Map(
      (
        (await kit.db.execute(
          sql`select ${sql.raw(table === 'published_page_digests' ? 'page_id' : 'section_id')} as id,
                xmin::text as v from ${sql.raw(table)} where website_id = ${site}`,
        )) as unknown as { rows: Array<{ id: string; v: string }> }
      ).rows.map((r) => [r.id, r.v]),
    );
  const rewritten = (before: Map<string, string>, after: Map<string, string>) =>
    [...after].filter(([id, v]) => before.get(id) !== v).map(([id]) => id);
  const [sectionsBefore, pagesBefore] = [
    await versions('published_section_digests'),
    await versions('published_page_digests'),
  ];
  expect(pagesBefore.size).toBeGreaterThan(1);
  const edit = await kit.call(w.tokens.default, 'update_section_text', {
    pageId: w.pages.home,
    sectionId: w.sections.hero,
    text: { heading: 'Rye on Fridays' },
  });
  expect(edit.error).toBeUndefined();
  await publish(site);
  const [sectionsAfter, pagesAfter] = [
    await versions('published_section_digests'),
    await versions('published_page_digests'),
  ];
  expect([...sectionsAfter.keys()].sort()).toEqual([...sectionsBefore.keys()].sort());
  expect(rewritten(pagesBefore, pagesAfter)).toEqual([w.pages.home]);
  const homeSections = (await draftSections(site)).filter((x) => x.pageId === w.pages.home).map((x) => x.id);
  expect(rewritten(sectionsBefore, sectionsAfter).sort()).toEqual(homeSections.sort());
  expect(await liveSections(site)).toEqual(await draftSections(site));
  expect(
    (await liveSnapshot(kit.db, site))!.pages.find((p) => p.id === w.pages.home)!.sections[0]!.content,
  ).toMatchObject({ heading: 'Rye on Fridays' });
});

it('name what a full comparison names through any sequence of edits and publishes', async () => {
  const w = await kit.workspace();
  const site = w.websites.main;
  // A small deterministic generator: the same sequence every run, many kinds of step.
  let seed = 20261129;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await kit.call(w.tokens.default, tool, args);
    expect(r.error, `${tool} ${JSON.stringify(args)}`).toBeUndefined();
    return r.data!;
  };
  const textSections = async () =>
    kit.db
      .select({ id: sections.id, pageId: sections.pageId, hidden: sections.hidden })
      .from(sections)
      .where(eq(sections.websiteId, site))
      .orderBy(sections.id)
      .then((rows) => rows);
  const pageIds = async () =>
    (
      await kit.db.select({ id: pages.id }).from(pages).where(eq(pages.websiteId, site)).orderBy(pages.id)
    ).map((p) => p.id);
  const compare = async (step: string) => {
    const [row] = await kit.db.select().from(websites).where(eq(websites.id, site));
    const viaTouched = await draftChanges(kit.db, row!);
    const whole = diffDraft(await loadDraft(kit.db, site), await liveSnapshot(kit.db, site));
    expect(viaTouched, step).toEqual(whole);
    return whole.length;
  };
  let changesSeen = 0;
  for (let i = 0; i < 40; i++) {
    const all = await textSections();
    const ids = await pageIds();
    const kind = next(7);
    const section = all.length ? all[next(all.length)]! : null;
    let step: string;
    if (kind === 0 || !section) {
      const pageId = ids[next(ids.length)]!;
      await call('add_section', { pageId, type: 'text', content: { body: `Added ${i}` } });
      step = `add to ${pageId}`;
    } else if (kind === 1) {
      // Edited to new words, or back to words it had (a page named with no change left).
      const body = next(2) ? `Edited ${i}` : 'Added 0';
      const r = await kit.call(w.tokens.default, 'update_section_text', {
        pageId: section.pageId,
        sectionId: section.id,
        text: { body },
      });
      step = `edit ${section.id}: ${r.error?.code ?? 'ok'}`;
    } else if (kind === 2) {
      await call('set_section_hidden', {
        pageId: section.pageId,
        sectionId: section.id,
        hidden: !section.hidden,
      });
      step = `hide ${section.id}`;
    } else if (kind === 3) {
      await call('move_section', { pageId: section.pageId, sectionId: section.id, position: 0 });
      step = `move ${section.id}`;
    } else if (kind === 4) {
      await call('create_page', { title: `Page ${i}` });
      step = 'create page';
    } else if (kind === 5 && ids.length > 2) {
      const gone = ids[next(ids.length)]!;
      await kit.db.delete(sections).where(eq(sections.pageId, gone));
      await kit.db.delete(pages).where(eq(pages.id, gone));
      step = `delete ${gone}`;
    } else {
      await publish(site);
      expect(JSON.parse(JSON.stringify((await liveSnapshot(kit.db, site))!.pages))).toEqual(
        JSON.parse(JSON.stringify(await loadDraft(kit.db, site))),
      );
      step = 'publish';
    }
    changesSeen += await compare(`step ${i}: ${step}`);
  }
  expect(changesSeen).toBeGreaterThan(20);
});
