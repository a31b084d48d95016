// PostgreSQL only (PGlite runs one transaction at a time): many writes of one workspace arriving at
// once must not take every pooled connection while they wait for each other's rows (issue 17). The
// test holds the section's row lock, sends 24 edits of it and checks that only two of them wait at
// the database, that a read and another workspace's write are answered meanwhile, and that once the
// lock goes every edit commits with its own revision (nothing lost).
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sections } from '../../src/db/schema.js';
import { WRITES_PER_WORKSPACE } from '../../src/runtime.js';
import { lockWaiters } from '../helpers/pg-locks.js';
import { until } from '../helpers/process.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

const url = process.env.DATABASE_URL;
let s: TestServer;

beforeAll(async () => {
  if (url) s = await startTestServer({ seed: false });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it.runIf(url)(
  'PostgreSQL: writes of one workspace waiting on a row leave the pool to reads and other workspaces',
  async () => {
    const demo = await s.seed();
    const other = await s.seed();
    const db = s.sg.deps.services.db;
    const revOf = async () =>
      (await db.select({ rev: sections.rev }).from(sections).where(eq(sections.id, demo.sections.hero)))[0]!
        .rev;
    const before = await revOf();
    const lock = new pg.Client({ connectionString: url });
    const watch = new pg.Client({ connectionString: url });
    await lock.connect();
    await watch.connect();
    const waiting = () => lockWaiters(watch, 'sections');
    try {
      await lock.query('begin');
      await lock.query('select 1 from sections where id = $1 for update', [demo.sections.hero]);
      const edits = Array.from({ length: 24 }, (_, i) =>
        s.call(demo.tokens.all, 'update_section_text', {
          pageId: demo.pages.home,
          sectionId: demo.sections.hero,
          text: { heading: `Edit ${i}` },
        }),
      );
      await until(async () => (await waiting()) >= WRITES_PER_WORKSPACE || null, 300);
      // The test pool has 20 connections: without the lanes all of them would now wait on the lock.
      const read = await s.call(demo.tokens.all, 'get_page', { pageId: demo.pages.home });
      expect(read.ok).toBe(true);
      const elsewhere = await s.call(other.tokens.all, 'update_section_text', {
        pageId: other.pages.home,
        sectionId: other.sections.hero,
        text: { heading: 'Another workspace' },
      });
      expect(elsewhere.ok).toBe(true);
      expect(await waiting()).toBe(WRITES_PER_WORKSPACE);
      expect(await revOf()).toBe(before); // nothing of the queued edits is written yet

      await lock.query('commit');
      const answers = await Promise.all(edits);
      expect(answers.map((a) => a.error?.code ?? 'ok')).toEqual(answers.map(() => 'ok'));
      const revs = answers.map((a) => a.data!.rev as number).sort((a, b) => a - b);
      expect(revs).toEqual(Array.from({ length: 24 }, (_, i) => before + 1 + i));
      expect(await revOf()).toBe(before + 24);
    } finally {
      await lock.query('rollback').catch(() => {});
      await lock.end();
      await watch.end();
    }
  },
  60_000,
);
