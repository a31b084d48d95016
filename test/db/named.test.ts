// Named statements (src/db/named.ts, issue 17): on PostgreSQL a write's statements are prepared once
// per pooled connection and then reused, never one per call, and two statement shapes never share a
// name (node-postgres refuses a name reused for another text). On PGlite the names are ignored.
import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { executeNamed } from '../../src/db/named.js';
import { sections } from '../../src/db/schema.js';
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
  const pool = (own!.db as unknown as { $client: pg.Pool }).$client;
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

it('executeNamed answers as execute does, for two texts on one database', async () => {
  const db = (own ?? (await testDatabase())).db;
  const a = await executeNamed<{ v: number }>(db, sql`select ${2}::int + 1 as v`);
  const b = await executeNamed<{ w: string }>(db, sql`select ${'x'}::text || 'y' as w`);
  const again = await executeNamed<{ v: number }>(db, sql`select ${40}::int + 1 as v`);
  expect([a.rows, b.rows, again.rows]).toEqual([[{ v: 3 }], [{ w: 'xy' }], [{ v: 41 }]]);
});
