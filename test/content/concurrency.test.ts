// Two writers on one section never lose an update silently (issue 3 item 7): concurrent calls over MCP
// either all land (row locks serialise them) or the loser gets stale_revision / conflict. Each writer
// is the domain function in a transaction of its own, as each call over MCP is.
import { asc, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { type Demo, seedDemo } from '../../src/demo/seed.js';
import { sections } from '../../src/db/schema.js';
import type { Services, SiteCtx } from '../../src/domain/context.js';
import { createPage } from '../../src/domain/pages/write.js';
import { addSection, replaceSectionContent, updateSectionText } from '../../src/domain/sections/edit.js';
import { uniqueTag } from '../helpers/db.js';
import { attempt, inSite, testServices } from '../helpers/domain.js';
import { draftRev, sectionRow } from './state.js';

let services: Services;
let d: Demo;
const db = () => services.db;
beforeAll(async () => {
  services = await testServices();
  d = await seedDemo(services.db, { tag: uniqueTag() });
});
/** One writer: its own transaction on the demo's main site, as the owner. */
const write = <T>(fn: (ctx: SiteCtx) => Promise<T>) =>
  attempt(
    inSite(services, { companyId: d.companyId, websiteId: d.websites.main, userId: d.users.owner.id }, fn),
  );

it('concurrent text edits of different fields of one section all land, each bumping rev once', async () => {
  const before = await sectionRow(db(), d.sections.hero);
  const rev0 = await draftRev(db(), d.websites.main);
  const edits: Record<string, string>[] = [
    { heading: 'A heading' },
    { subheading: 'A subheading' },
    { buttonLabel: 'A label' },
  ];
  const results = await Promise.all(
    edits.map((text) =>
      write((ctx) => updateSectionText(ctx, { pageId: d.pages.home, sectionId: d.sections.hero, text })),
    ),
  );
  expect(results.map((r) => r.ok)).toEqual([true, true, true]);
  expect(results.map((r) => r.data?.rev).sort()).toEqual([before.rev + 1, before.rev + 2, before.rev + 3]);
  const after = await sectionRow(db(), d.sections.hero);
  expect(after.content).toMatchObject({
    heading: 'A heading',
    subheading: 'A subheading',
    buttonLabel: 'A label',
  });
  expect(after.rev).toBe(before.rev + 3);
  expect(await draftRev(db(), d.websites.main)).toBe(rev0 + 3);
});

it('concurrent replaces with the same clientRev: exactly one wins, the others get stale_revision', async () => {
  const j = { data: await sectionRow(db(), d.sections.intro) }; // what get_section_json reads
  const results = await Promise.all(
    [1, 2, 3, 4].map((n) =>
      write((ctx) =>
        replaceSectionContent(ctx, {
          pageId: d.pages.home,
          sectionId: d.sections.intro,
          content: { body: `Writer ${n}` },
          clientRev: j.data.rev,
        }),
      ),
    ),
  );
  const winners = results.filter((r) => r.ok);
  expect(winners).toHaveLength(1);
  expect(results.filter((r) => r.error?.code === 'stale_revision')).toHaveLength(3);
  const after = await sectionRow(db(), d.sections.intro);
  expect(after.rev).toBe(j.data.rev + 1);
  const winner = results.findIndex((r) => r.ok) + 1;
  expect(after.content).toEqual({ body: `Writer ${winner}` });
});

it('concurrent add_section calls keep positions unique and dense', async () => {
  const results = await Promise.all(
    [0, 1, 2, 3, 4].map((n) =>
      write((ctx) =>
        addSection(ctx, {
          pageId: d.pages.contact,
          type: 'text',
          content: { body: `Block ${n}` },
          position: 0,
        }),
      ),
    ),
  );
  expect(results.every((r) => r.ok)).toBe(true);
  const rows = await db()
    .select({ id: sections.id, position: sections.position })
    .from(sections)
    .where(eq(sections.pageId, d.pages.contact))
    .orderBy(asc(sections.position));
  expect(rows.map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5]);
});

it('concurrent create_page with one slug: one page, the others get conflict', async () => {
  const results = await Promise.all(
    [1, 2, 3].map(() => write((ctx) => createPage(ctx, { title: 'Gift cards', slug: 'gift-cards' }))),
  );
  expect(results.filter((r) => r.ok)).toHaveLength(1);
  expect(results.filter((r) => r.error?.code === 'conflict')).toHaveLength(2);
});
