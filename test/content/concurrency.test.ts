// Two writers on one section never lose an update silently: concurrent calls over MCP
// either all land (row locks serialise them) or the loser gets stale_revision / conflict.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { sections } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { draftRev, sectionRow } from './state.js';

let s: TestServer;
let d: Demo;
const db = () => s.sg.deps.services.db;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
  d = await s.seed();
});
afterAll(() => s?.close());

it('concurrent text edits of different fields of one section all land, each bumping rev once', async () => {
  const before = await sectionRow(db(), d.sections.hero);
  const rev0 = await draftRev(db(), d.websites.main);
  const edits = [{ heading: 'A heading' }, { subheading: 'A subheading' }, { buttonLabel: 'A label' }];
  const results = await Promise.all(
    edits.map((text) =>
      s.call(d.tokens.default, 'update_section_text', {
        pageId: d.pages.home,
        sectionId: d.sections.hero,
        text,
      }),
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
  const j = await s.call(d.tokens.default, 'get_section_json', {
    pageId: d.pages.home,
    sectionId: d.sections.intro,
  });
  const results = await Promise.all(
    [1, 2, 3, 4].map((n) =>
      s.call(d.tokens.default, 'replace_section_content', {
        pageId: d.pages.home,
        sectionId: d.sections.intro,
        content: { body: `Writer ${n}` },
        clientRev: j.data?.rev,
      }),
    ),
  );
  const winners = results.filter((r) => r.ok);
  expect(winners).toHaveLength(1);
  expect(results.filter((r) => r.error?.code === 'stale_revision')).toHaveLength(3);
  const after = await sectionRow(db(), d.sections.intro);
  expect(after.rev).toBe(j.data?.rev + 1);
  const winner = results.findIndex((r) => r.ok) + 1;
  expect(after.content).toEqual({ body: `Writer ${winner}` });
});

it('concurrent add_section calls keep positions unique and dense', async () => {
  const results = await Promise.all(
    [0, 1, 2, 3, 4].map((n) =>
      s.call(d.tokens.default, 'add_section', {
        pageId: d.pages.contact,
        type: 'text',
        content: { body: `Block ${n}` },
        position: 0,
      }),
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
    [1, 2, 3].map(() => s.call(d.tokens.default, 'create_page', { title: 'Gift cards', slug: 'gift-cards' })),
  );
  expect(results.filter((r) => r.ok)).toHaveLength(1);
  expect(results.filter((r) => r.error?.code === 'conflict')).toHaveLength(2);
});
