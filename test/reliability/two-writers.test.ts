// Two `sitegate serve` processes writing one website (docs/reliability.md, "Lock order"). Sixteen
// clients, eight on each process, edit the text of eight sections of one website, every section
// through both processes at once, each with its own text each time. Before the lock order, the two
// processes' write groups took the sections' rows and the workspace's cache-version row in opposite
// orders: PostgreSQL found deadlocks (its own per-database count shows them) and calls failed with the
// generic failure. Now every call succeeds, no deadlock is found, and each section ends at exactly the
// number of edits acknowledged for it. PostgreSQL only: two processes share one database.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Child, backend, besides, newDataDir, start, stop } from './harness.js';
import { callTool } from './pg-kit.js';

const url = process.env.DATABASE_URL;
const CLIENTS_PER_PROCESS = 8;
const EDITS_PER_CLIENT = 25;

let store: Awaited<ReturnType<typeof backend>>;
let a: Child;
let b: Child;
let watch: pg.Client;

beforeAll(async () => {
  if (!url) return;
  store = await backend();
  const env = { ...store.env, RATE_LIMIT_PER_CONNECTION: '100000', RATE_LIMIT_PER_WORKSPACE: '100000' };
  a = await start(newDataDir('writers-a'), env);
  b = besides(await start(newDataDir('writers-b'), env), a);
  watch = new pg.Client({ connectionString: store.databaseUrl });
  await watch.connect();
}, 240_000);
afterAll(async () => {
  await watch?.end();
  for (const c of [a, b]) if (c) await stop(c);
  await store?.drop();
});

const deadlocks = async () =>
  Number(
    (await watch.query('select deadlocks from pg_stat_database where datname = current_database()')).rows[0]
      .deadlocks,
  );

it.runIf(url)(
  'sixteen clients on two processes edit eight sections of one website: every call succeeds, no deadlock',
  async () => {
    const site = a.demo.websites.main;
    const token = a.demo.tokens.all;
    // Eight text sections on two new pages of the demo's main website.
    const sections: Array<{ pageId: string; sectionId: string }> = [];
    for (let p = 0; p < 2; p++) {
      const page = await callTool(a.base, token, 'create_page', { websiteId: site, title: `Writers ${p}` });
      expect(page.ok, page.text).toBe(true);
      for (let k = 0; k < 4; k++) {
        const added = await callTool(a.base, token, 'add_section', {
          websiteId: site,
          pageId: page.data.pageId,
          type: 'text',
          content: { body: 'Start.' },
        });
        expect(added.ok, added.text).toBe(true);
        sections.push({ pageId: page.data.pageId, sectionId: added.data.sectionId });
      }
    }
    const revs = async () =>
      new Map(
        (
          await watch.query('select id, rev from sections where id = any($1)', [
            sections.map((s) => s.sectionId),
          ])
        ).rows.map((r) => [r.id as string, Number(r.rev)]),
      );
    const before = await revs();
    const deadlocksBefore = await deadlocks();

    const failures: string[] = [];
    const acknowledged = new Map<string, number>();
    const client = async (via: Child, n: number) => {
      for (let i = 0; i < EDITS_PER_CLIENT; i++) {
        // Each client moves through all eight sections, starting at its own: both processes edit
        // every section, in different orders.
        const s = sections[(n + i) % sections.length]!;
        const r = await callTool(via.base, token, 'update_section_text', {
          websiteId: site,
          ...s,
          text: { body: `Edit ${i} by client ${n} through ${via === a ? 'A' : 'B'}.` },
        });
        if (r.ok) acknowledged.set(s.sectionId, (acknowledged.get(s.sectionId) ?? 0) + 1);
        else failures.push(r.text ?? `HTTP ${r.status}`);
      }
    };
    await Promise.all(
      Array.from({ length: 2 * CLIENTS_PER_PROCESS }, (_, n) => client(n % 2 === 0 ? a : b, n)),
    );

    expect(failures).toEqual([]);
    expect(await deadlocks()).toBe(deadlocksBefore);
    const after = await revs();
    for (const s of sections) {
      expect(after.get(s.sectionId)).toBe(before.get(s.sectionId)! + acknowledged.get(s.sectionId)!);
    }
    expect([...acknowledged.values()].reduce((x, y) => x + y, 0)).toBe(
      2 * CLIENTS_PER_PROCESS * EDITS_PER_CLIENT,
    );
  },
  300_000,
);
