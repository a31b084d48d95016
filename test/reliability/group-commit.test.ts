// PostgreSQL only (PGlite runs one transaction at a time, so nothing here could race there): a
// workspace's writes that arrive while one of its transactions is in flight commit together in its
// next one (src/db/group-commit.ts). The test holds a section's row lock from a client of its own, so
// the first edit waits at the database while the others queue in the process, then lets it go.
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activity, sections, websites } from '../../src/db/schema.js';
import { lockWaiters } from '../helpers/pg-locks.js';
import { until } from '../helpers/process.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

const url = process.env.DATABASE_URL;
/** The transaction that wrote a row. */
const xmin = sql<string>`xmin::text`;
let s: TestServer;

beforeAll(async () => {
  if (url) s = await startTestServer({ seed: false });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** Holds one row lock from a connection of the test's own until `release`. */
async function holdRow(table: string, id: string) {
  const lock = new pg.Client({ connectionString: url });
  const watch = new pg.Client({ connectionString: url });
  await lock.connect();
  await watch.connect();
  await lock.query('begin');
  await lock.query(`select 1 from ${table} where id = $1 for update`, [id]);
  return {
    waiting: () => lockWaiters(watch, table),
    async release() {
      await lock.query('commit').catch(() => {});
      await lock.end();
      await watch.end();
    },
  };
}

it.runIf(url)(
  'PostgreSQL: queued writes of one workspace commit in one transaction, each with its own revision and line, and leave the pool to others',
  async () => {
    const demo = await s.seed();
    const other = await s.seed();
    const db = s.sg.deps.services.db;
    const revOf = async () =>
      (await db.select({ rev: sections.rev }).from(sections).where(eq(sections.id, demo.sections.hero)))[0]!
        .rev;
    const before = await revOf();
    const held = await holdRow('sections', demo.sections.hero);
    try {
      const edits = Array.from({ length: 24 }, (_, i) =>
        s.call(demo.tokens.all, 'update_section_text', {
          pageId: demo.pages.home,
          sectionId: demo.sections.hero,
          text: { heading: `Edit ${i}` },
        }),
      );
      await until(async () => (await held.waiting()) >= 1 || null, 300);
      // The test pool has 20 connections: were each edit its own transaction, all would wait on the lock.
      const read = await s.call(demo.tokens.all, 'get_page', { pageId: demo.pages.home });
      expect(read.ok).toBe(true);
      const elsewhere = await s.call(other.tokens.all, 'update_section_text', {
        pageId: other.pages.home,
        sectionId: other.sections.hero,
        text: { heading: 'Another workspace' },
      });
      expect(elsewhere.ok).toBe(true);
      expect(await held.waiting()).toBe(1);
      expect(await revOf()).toBe(before); // nothing of the queued edits is written yet

      await held.release();
      const answers = await Promise.all(edits);
      expect(answers.map((a) => a.error?.code ?? 'ok')).toEqual(answers.map(() => 'ok'));
      const revs = answers.map((a) => a.data!.rev as number).sort((a, b) => a - b);
      expect(revs).toEqual(Array.from({ length: 24 }, (_, i) => before + 1 + i));
      expect(await revOf()).toBe(before + 24);
      // The group's edits each answer their own draft revision, one apart, and the website ends at the
      // last.
      const drafts = answers.map((a) => a.data!.draftRevision as number).sort((a, b) => a - b);
      expect(drafts).toEqual(Array.from({ length: 24 }, (_, i) => drafts[0]! + i));
      const [site] = await db
        .select({ draftRev: websites.draftRev })
        .from(websites)
        .where(eq(websites.id, demo.websites.main));
      expect(site!.draftRev).toBe(drafts[23]);
      // Each edit has its Activity line; the edits that queued behind the first group (closed once it
      // held the workspace's lock, with the edits that had arrived by then) share one transaction.
      const lines = await db
        .select({ xmin })
        .from(activity)
        .where(and(eq(activity.companyId, demo.companyId), eq(activity.tool, 'update_section_text')));
      expect(lines).toHaveLength(24);
      const byTx = new Map<string, number>();
      for (const l of lines) byTx.set(String(l.xmin), (byTx.get(String(l.xmin)) ?? 0) + 1);
      expect([...byTx.values()].reduce((a, b) => a + b)).toBe(24);
      expect(byTx.size).toBeLessThanOrEqual(2);
    } finally {
      await held.release();
    }
  },
  60_000,
);

it.runIf(url)(
  'PostgreSQL: a refusal inside a group undoes nothing of the others and writes nothing of its own',
  async () => {
    const demo = await s.seed();
    const db = s.sg.deps.services.db;
    const held = await holdRow('sections', demo.sections.hero);
    const heroText = { pageId: demo.pages.home, sectionId: demo.sections.hero };
    let answers: Awaited<ReturnType<TestServer['call']>>[];
    try {
      const first = s.call(demo.tokens.all, 'update_section_text', {
        ...heroText,
        text: { heading: 'First' },
      });
      await until(async () => (await held.waiting()) >= 1 || null, 300);
      // These queue behind the first and form one group; the middle one names a field a hero lacks.
      const group = [
        s.call(demo.tokens.all, 'update_section_text', { ...heroText, text: { heading: 'Second' } }),
        s.call(demo.tokens.all, 'update_section_text', { ...heroText, text: { nosuchfield: 'x' } }),
        s.call(demo.tokens.all, 'update_section_text', { ...heroText, text: { heading: 'Third' } }),
      ];
      await new Promise((r) => setTimeout(r, 50));
      await held.release();
      answers = await Promise.all([first, ...group]);
    } finally {
      await held.release();
    }
    expect(answers.map((a) => a.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'invalid_input', 'ok']);
    const [hero] = await db.select().from(sections).where(eq(sections.id, demo.sections.hero));
    expect((hero!.content as { heading: string }).heading).toBe('Third');
    expect(hero!.content).not.toHaveProperty('nosuchfield');
    expect(answers.map((a) => a.data?.rev)).toEqual([
      answers[0]!.data!.rev,
      answers[0]!.data!.rev + 1,
      undefined,
      answers[0]!.data!.rev + 2,
    ]);
    await s.sg.deps.activity.flush();
    const lines = await db
      .select({ outcome: activity.outcome, code: activity.code })
      .from(activity)
      .where(and(eq(activity.companyId, demo.companyId), eq(activity.tool, 'update_section_text')));
    expect(lines.filter((l) => l.outcome === 'allowed')).toHaveLength(3);
    expect(lines.filter((l) => l.outcome === 'denied').map((l) => l.code)).toEqual(['invalid_input']);
  },
  60_000,
);

it.runIf(url)(
  'PostgreSQL: edits of one section inside a group each see the one before (text, move, hide, text)',
  async () => {
    const demo = await s.seed();
    const db = s.sg.deps.services.db;
    const section = { pageId: demo.pages.home, sectionId: demo.sections.hero };
    const [before] = await db.select().from(sections).where(eq(sections.id, demo.sections.hero));
    const held = await holdRow('sections', demo.sections.hero);
    let answers: Awaited<ReturnType<TestServer['call']>>[];
    try {
      const first = s.call(demo.tokens.all, 'update_section_text', { ...section, text: { heading: 'One' } });
      await until(async () => (await held.waiting()) >= 1 || null, 300);
      const group = [
        s.call(demo.tokens.all, 'update_section_text', { ...section, text: { heading: 'Two' } }),
        s.call(demo.tokens.all, 'move_section', { ...section, position: 1 }),
        s.call(demo.tokens.all, 'set_section_hidden', { ...section, hidden: true }),
        s.call(demo.tokens.all, 'update_section_text', { ...section, text: { subheading: 'Three' } }),
      ];
      await new Promise((r) => setTimeout(r, 50));
      await held.release();
      answers = await Promise.all([first, ...group]);
    } finally {
      await held.release();
    }
    expect(answers.map((a) => a.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(answers.map((a) => a.data!.rev)).toEqual([1, 2, 3, 4, 5].map((n) => before!.rev + n));
    const [after] = await db.select().from(sections).where(eq(sections.id, demo.sections.hero));
    expect(after!.rev).toBe(before!.rev + 5);
    expect(after!.position).toBe(1);
    expect(after!.hidden).toBe(true);
    expect(after!.content).toMatchObject({ heading: 'Two', subheading: 'Three' });
  },
  60_000,
);
