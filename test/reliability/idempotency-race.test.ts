// PostgreSQL only (PGlite runs one transaction at a time): many calls with one idempotency key arriving
// at once, at two servers sharing one database, have exactly one effect, and every caller gets the
// same answer. A tool in the call's transaction (create_page) claims the key inside it, so the others
// wait on the claim's row and then read the committed answer; a tool with transactions of its own
// (generate_image) claims it in a statement of its own, and the others wait for its stored answer.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activity, assets, companies, idempotencyKeys, pages } from '../../src/db/schema.js';
import { REPLAY_SUMMARY } from '../../src/domain/idempotency/keys.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

const url = process.env.DATABASE_URL;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  if (!url) return;
  // Two servers, two connection pools, one database: as two processes behind a load balancer.
  a = await startTestServer({ seed: false });
  b = await startTestServer({ seed: false });
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const CALLS = 24;
const db = () => a.sg.deps.services.db;
const linesOf = async (connectionId: string, tool: string) => {
  await a.sg.deps.activity.flush();
  await b.sg.deps.activity.flush();
  return db()
    .select()
    .from(activity)
    .where(and(eq(activity.connectionId, connectionId), eq(activity.tool, tool)));
};

it.runIf(url)(
  'PostgreSQL: concurrent create_page calls with one key on two servers create one page, and all get its id',
  async () => {
    const w = await a.workspace();
    const args = { title: 'Race day', slug: 'race-day', idempotencyKey: `race-page-${w.companyId}` };
    const results = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => (i % 2 ? a : b).call(w.tokens.all, 'create_page', args)),
    );
    for (const r of results) expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(new Set(results.map((r) => r.data!.pageId)).size).toBe(1);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    const created = await db()
      .select()
      .from(pages)
      .where(and(eq(pages.websiteId, w.websites.main), eq(pages.slug, 'race-day')));
    expect(created.map((p) => p.id)).toEqual([results[0]!.data!.pageId]);
    const keys = await db()
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.connectionId, w.connections.all));
    expect(keys.map((k) => k.status)).toEqual(['done']);
    const lines = await linesOf(w.connections.all, 'create_page');
    expect(lines.filter((l) => l.summary === 'Created a draft page')).toHaveLength(1);
    expect(lines.filter((l) => l.summary === REPLAY_SUMMARY)).toHaveLength(CALLS - 1);
  },
);

it.runIf(url)(
  'PostgreSQL: concurrent calls with one key and two sets of arguments: one page, the rest replay or are refused',
  async () => {
    const w = await a.workspace();
    const key = `race-mixed-${w.companyId}`;
    const argsOf = (i: number) =>
      i % 4 < 2
        ? { title: 'Left', slug: 'left', idempotencyKey: key }
        : { title: 'Right', slug: 'right', idempotencyKey: key };
    const results = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => (i % 2 ? a : b).call(w.tokens.all, 'create_page', argsOf(i))),
    );
    const made = await db()
      .select()
      .from(pages)
      .where(eq(pages.websiteId, w.websites.main))
      .then((rows) => rows.filter((p) => p.slug === 'left' || p.slug === 'right'));
    expect(made).toHaveLength(1);
    results.forEach((r, i) => {
      if (argsOf(i).slug === made[0]!.slug) expect(r.data?.pageId).toBe(made[0]!.id);
      else expect(r.error?.code).toBe('idempotency_conflict');
    });
  },
);

it.runIf(url)(
  'PostgreSQL: concurrent generate_image calls with one key on two servers make one image and charge one credit',
  async () => {
    const w = await a.workspace({ credits: 5 });
    const args = { prompt: 'A tray of pretzels', idempotencyKey: `race-image-${w.companyId}` };
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).call(w.tokens.all, 'generate_image', args)),
    );
    for (const r of results) expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(new Set(results.map((r) => r.data!.assetId)).size).toBe(1);
    const made = await db().select().from(assets).where(eq(assets.websiteId, w.websites.main));
    expect(made).toHaveLength(1);
    const [co] = await db().select().from(companies).where(eq(companies.id, w.companyId));
    expect(co!.credits).toBe(4);
    const lines = await linesOf(w.connections.all, 'generate_image');
    expect(lines.reduce((n, l) => n + l.creditsSpent, 0)).toBe(1);
    expect(lines.filter((l) => l.summary === REPLAY_SUMMARY)).toHaveLength(11);
  },
);
