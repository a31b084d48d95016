// Fixed statements (src/db/named.ts): on PostgreSQL a write's statements are prepared once
// per pooled connection and then reused, never one per call, and two statement shapes never share a
// name (node-postgres refuses a name reused for another text). On PGlite the names are ignored, and
// the rows of a statement built once are the rows Drizzle's own select gives.
import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { fixedSelect, fixedSql } from '../../src/db/named.js';
import { pages, sections, websiteMembers, websites } from '../../src/db/schema.js';
import { gateFacts } from '../../src/gate/authorize.js';
import { testDatabase } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

const url = process.env.DATABASE_URL;
const POOL = 2;

let own: Database | undefined;
let s: TestServer;

beforeAll(async () => {
  await testDatabase(); // applies the migrations to this file's database
  // On PostgreSQL a small pool of our own, so every one of its sessions can be looked into.
  own = url ? await openDatabase({ databaseUrl: url, poolSize: POOL, migrate: false }) : undefined;
  s = await startTestServer({ database: own });
});
afterAll(async () => {
  await s?.close();
  await own?.close();
});

const nameOf = (p: string) => p.slice(0, p.indexOf(' '));

/** The statements prepared on every session of our pool (each session sees only its own). */
async function prepared(): Promise<string[]> {
  const pool = (own!.db as unknown as { $client: { raw: pg.Pool } }).$client.raw;
  const clients = await Promise.all(Array.from({ length: POOL }, () => pool.connect()));
  try {
    const all = await Promise.all(
      clients.map((c) =>
        c.query<{ name: string; statement: string }>('select name, statement from pg_prepared_statements'),
      ),
    );
    return all.flatMap((r) =>
      r.rows.map((row) => `${row.name} ${row.statement.replace(/\s+/g, ' ').trim()}`),
    );
  } finally {
    for (const c of clients) c.release();
  }
}

const edit = (n: number) =>
  s.call(s.demo.tokens.default, 'update_section_text', {
    pageId: s.demo.pages.home,
    sectionId: s.demo.sections.hero,
    text: { heading: `Heading ${n}` },
  });

it.runIf(url)('a write prepares its statements once per connection and reuses them afterwards', async () => {
  expect(await prepared()).toEqual([]);
  const first = await edit(1);
  expect(first.ok).toBe(true);
  const afterOne = await prepared();
  const has = (start: string) => afterOne.some((p) => p.slice(p.indexOf(' ') + 1).startsWith(start));
  expect(afterOne.some((p) => p.startsWith('sitegate_gate_row select "websites"."id"'))).toBe(true);
  expect(
    afterOne.some((p) => p.startsWith('sitegate_section_locked select') && p.endsWith('for update')),
  ).toBe(true);
  expect(has('with saved as (update "sections" set "content"')).toBe(true);
  expect(has('insert into activity')).toBe(true);

  for (let n = 2; n <= 12; n++) expect((await edit(n)).ok).toBe(true);
  // Eleven writes later the pool holds the same names, each at most once per connection.
  const afterMany = await prepared();
  expect(new Set(afterMany.map(nameOf))).toEqual(new Set(afterOne.map(nameOf)));
  expect(afterMany.length).toBeLessThanOrEqual(new Set(afterOne.map(nameOf)).size * POOL);
});

it.runIf(url)(
  'another shape of the same save gets its own name, and both keep working on one connection',
  async () => {
    const hide = await s.call(s.demo.tokens.default, 'set_section_hidden', {
      pageId: s.demo.pages.home,
      sectionId: s.demo.sections.hero,
      hidden: true,
    });
    expect(hide.ok).toBe(true);
    expect((await edit(13)).ok).toBe(true);
    const saves = (await prepared()).filter((p) => p.includes(' with saved as ('));
    const shapes = new Set(saves.map((p) => p.slice(p.indexOf(' '))));
    expect([...shapes].some((t) => t.includes('set "hidden"'))).toBe(true);
    expect([...shapes].some((t) => t.includes('set "content"'))).toBe(true);
    // One name per text: a name shared by two texts would have failed the second call above.
    expect(new Set(saves.map(nameOf)).size).toBe(shapes.size);
    const [hero] = await own!.db.select().from(sections).where(eq(sections.id, s.demo.sections.hero));
    expect(hero).toMatchObject({ hidden: true, content: { heading: 'Heading 13' } });
  },
);

it.runIf(url)('get_page reads its page and sections through named statements', async () => {
  const page = await s.call(s.demo.tokens.default, 'get_page', { pageId: s.demo.pages.about });
  expect(page.ok).toBe(true);
  const names = new Set((await prepared()).map(nameOf));
  expect(names.has('sitegate_page') && names.has('sitegate_page_sections')).toBe(true);
});

// The save is one fixed statement for the section and its website (both backends): the section's
// text, its rev, and the website's draft revision and time all come from the values filled in.
it('a fixed save writes the section and stamps its website with the same time and the next revision', async () => {
  const db = (own ?? (await testDatabase())).db;
  const site = () => db.select().from(websites).where(eq(websites.id, s.demo.websites.main));
  const [before] = await site();
  const saved = await s.call(s.demo.tokens.default, 'update_section_text', {
    pageId: s.demo.pages.home,
    sectionId: s.demo.sections.intro,
    text: { heading: 'Stamped' },
  });
  expect(saved.ok).toBe(true);
  const [after] = await site();
  const [intro] = await db.select().from(sections).where(eq(sections.id, s.demo.sections.intro));
  expect(intro!.content).toMatchObject({ heading: 'Stamped' });
  expect(saved.data).toMatchObject({ rev: intro!.rev, draftRevision: after!.draftRev });
  expect(after!.draftRev).toBe(before!.draftRev + 1);
  expect(after!.updatedAt.getTime()).toBe(intro!.updatedAt.getTime());
  expect(after!.updatedAt.getTime()).toBeGreaterThan(before!.updatedAt.getTime());
});

// Fixed statements are built once; their rows must be the rows Drizzle's own select gives (both
// backends, on the demo's own data).
it("fixed selects answer as Drizzle's own select does, for every value filled in", async () => {
  const db = (own ?? (await testDatabase())).db;
  const { websites: w, users, pages: p } = s.demo;
  const gate = fixedSelect('test_gate', (d) =>
    gateFacts(d, sql.placeholder('creatorId'), eq(websites.id, sql.placeholder('id'))),
  );
  // A member (role set) and a creator with no membership (the left join's role is null).
  for (const [id, creatorId] of [
    [w.main, users.owner.id],
    [w.main, users.otherOwner.id],
    [w.otherTenant, users.owner.id],
  ] as const) {
    const fixed = await gate(db, { id, creatorId });
    expect(fixed).toEqual(await gateFacts(db, creatorId, eq(websites.id, id)));
    expect(fixed).toHaveLength(1);
  }
  expect((await gate(db, { id: w.main, creatorId: users.otherOwner.id }))[0]!.role).toBeNull();

  const page = fixedSelect('test_page', (d) =>
    d
      .select()
      .from(pages)
      .where(eq(pages.id, sql.placeholder('id'))),
  );
  for (const id of [p.home, p.about, 'pg_missing']) {
    expect(await page(db, { id })).toEqual(await db.select().from(pages).where(eq(pages.id, id)));
  }
  const [home] = await page(db, { id: p.home });
  expect(home!.createdAt).toBeInstanceOf(Date); // mapped through the column, as Drizzle maps it
  await expect(page(db, {})).rejects.toThrow(/No value for placeholder "id"/);
});

it('a fixed select refuses a left-joined table selected as an object (it could not be nulled)', async () => {
  const db = (own ?? (await testDatabase())).db;
  const joined = fixedSelect('test_left_object', (d) =>
    d
      .select({ website: websites, member: websiteMembers })
      .from(websites)
      .leftJoin(websiteMembers, eq(websiteMembers.websiteId, websites.id))
      .where(eq(websites.id, sql.placeholder('id'))),
  );
  await expect(joined(db, { id: s.demo.websites.main })).rejects.toThrow(
    /test_left_object: select a left-joined table's columns one by one/,
  );
});

it('a fixed raw statement fills its placeholders anew on each run', async () => {
  const db = (own ?? (await testDatabase())).db;
  const add = fixedSql<{ v: number; w: string }>(
    'test_add',
    () => sql`select ${sql.placeholder('n')}::int + 1 as v, ${sql.placeholder('s')}::text || 'y' as w`,
  );
  const runs = [await add(db, { n: 2, s: 'x' }), await add(db, { n: 40, s: 'z' })];
  expect(runs.map((r) => r.rows)).toEqual([[{ v: 3, w: 'xy' }], [{ v: 41, w: 'zy' }]]);
});
