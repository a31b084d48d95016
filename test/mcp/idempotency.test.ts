// A retry never does the work twice (docs/reliability.md, "Retries"): every tool that creates something
// or spends credits takes an optional idempotencyKey. The same key and arguments from the same
// connection within 24 hours answer the first result again and write and charge nothing; other
// arguments are refused with idempotency_conflict; a refused call gives its key back; another
// connection's key is its own; retention forgets keys after their day. Over the real HTTP server and
// the SDK client (and the 2025 wire's direct path); the race between processes is in
// test/reliability/idempotency-race.test.ts.
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/db/schema.js';
import { REPLAY_SUMMARY } from '../../src/domain/idempotency/keys.js';
import { newId } from '../../src/kernel/ids.js';
import type { Workspace } from '../helpers/factory.js';
import { type TestServer, postMcp, runJob, startTestServer } from '../helpers/server.js';
import { testClock } from '../plans/rail.js';
import { type AssetServer, sampleSite, startAssetServer } from '../portable/fixtures.js';

let s: TestServer;
let origin: AssetServer;
beforeAll(async () => {
  origin = await startAssetServer({
    '/': {
      type: 'text/html',
      body: '<html><head><title>Harbor</title></head><body><h1>Harbor Bakery</h1><p>Fresh bread.</p></body></html>',
    },
  });
  s = await startTestServer({ seed: false, env: { CRAWL_ALLOW_HOSTS: origin.hostPort } });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await origin?.close();
});

const db = () => s.sg.deps.services.db;

/** Everything a creating or spending tool could have written or charged in the workspace. */
async function footprint(w: Workspace) {
  const sites = (
    await db().select({ id: t.websites.id }).from(t.websites).where(eq(t.websites.companyId, w.companyId))
  ).map((r) => r.id);
  const rows = async (table: typeof t.pages | typeof t.sections | typeof t.assets | typeof t.services) =>
    Number((await db().select({ n: count() }).from(table).where(inArray(table.websiteId, sites)))[0]!.n);
  const [co] = await db()
    .select({ credits: t.companies.credits })
    .from(t.companies)
    .where(eq(t.companies.id, w.companyId));
  return {
    websites: sites.length,
    pages: await rows(t.pages),
    sections: await rows(t.sections),
    assets: await rows(t.assets),
    services: await rows(t.services),
    products: Number(
      (await db().select({ n: count() }).from(t.products).where(inArray(t.products.websiteId, sites)))[0]!.n,
    ),
    plans: Number(
      (
        await db()
          .select({ n: count() })
          .from(t.pendingActions)
          .where(inArray(t.pendingActions.websiteId, sites))
      )[0]!.n,
    ),
    credits: co!.credits,
  };
}

async function activityOf(s: TestServer, connectionId: string, tool: string) {
  await s.sg.deps.activity.flush();
  return db()
    .select()
    .from(t.activity)
    .where(and(eq(t.activity.connectionId, connectionId), eq(t.activity.tool, tool)))
    .orderBy(t.activity.id);
}

const keyFor = (w: Workspace, what: string) => `retry-${what}-${w.companyId}`;

type Case = {
  tool: string;
  args: (w: Workspace) => Promise<Record<string, unknown>> | Record<string, unknown>;
};

/** Every tool that creates something or spends credits, with arguments that make it succeed. */
const CASES: Case[] = [
  { tool: 'create_page', args: () => ({ title: 'Opening hours', slug: 'opening-hours' }) },
  { tool: 'create_blog_post', args: () => ({ title: 'New oven', body: 'It bakes **more** bread.' }) },
  { tool: 'add_section', args: (w) => ({ pageId: w.pages.home, type: 'hero' }) },
  { tool: 'create_site', args: () => ({}) },
  { tool: 'import_site', args: () => ({ site: sampleSite(origin.base, 'retry') }) },
  { tool: 'migrate_site_from_url', args: () => ({ url: `${origin.base}/`, maxPages: 1 }) },
  { tool: 'create_service', args: () => ({ name: 'Baking class', durationMinutes: 60 }) },
  { tool: 'create_product', args: () => ({ name: 'Sourdough loaf', priceCents: 450 }) },
  { tool: 'generate_image', args: () => ({ prompt: 'A loaf of sourdough on a board' }) },
  { tool: 'prepare_publish', args: () => ({}) },
  {
    tool: 'prepare_unpublish',
    args: async (w) => {
      await db()
        .update(t.websites)
        .set({ publishedRev: 1, publishedAt: new Date() })
        .where(eq(t.websites.id, w.websites.main));
      return {};
    },
  },
  {
    tool: 'prepare_publish_product',
    args: async (w) => {
      const productId = newId('prod');
      await db()
        .insert(t.products)
        .values({ id: productId, websiteId: w.websites.main, name: 'Rye', priceCents: 500 });
      return { productId };
    },
  },
  { tool: 'prepare_search_visibility', args: () => ({ visible: true }) },
  { tool: 'prepare_create_company', args: () => ({ name: 'Harbor Catering' }) },
  {
    tool: 'prepare_grant_access',
    args: (w) => ({ email: `new.editor+${w.companyId}@fixture.sitegate.test`, level: 'editor' }),
  },
  {
    tool: 'prepare_send_document',
    args: async (w) => {
      const documentId = newId('doc');
      await db()
        .insert(t.documents)
        .values({
          id: documentId,
          websiteId: w.websites.main,
          kind: 'invoice',
          number: 'INV-RETRY-1',
          recipientName: 'Ada Customer',
          recipientEmail: `ada+${w.companyId}@fixture.sitegate.test`,
          lines: [{ description: 'Catering', quantity: 1, unitPriceCents: 12_000 }],
          totalCents: 12_000,
        });
      return { documentId };
    },
  },
];

it('the table covers exactly the tools declared idempotent, and those are the creating and spending tools', () => {
  const keyed = s.sg.deps.registry
    .all()
    .filter((c) => c.def.idempotent === 'key')
    .map((c) => c.def.name)
    .sort();
  expect(CASES.map((c) => c.tool).sort()).toEqual(keyed);
  const all = s.sg.deps.registry.all().map((c) => c.def.name);
  for (const name of all.filter((n) => n.startsWith('prepare_') || n.startsWith('create_'))) {
    expect(keyed).toContain(name);
  }
  for (const c of s.sg.deps.registry.all()) {
    const props = (c.listing.inputSchema.properties ?? {}) as Record<string, unknown>;
    expect('idempotencyKey' in props).toBe(c.def.idempotent === 'key');
  }
});

describe('a repeat with the same key answers the first result and writes nothing', () => {
  for (const c of CASES) {
    it(c.tool, async () => {
      const w = await s.workspace();
      const args = { ...(await c.args(w)), idempotencyKey: keyFor(w, c.tool) };
      const before = await footprint(w);
      const first = await s.call(w.tokens.all, c.tool, args);
      expect(first.ok, JSON.stringify(first.error)).toBe(true);
      const after = await footprint(w);
      expect(after).not.toEqual(before);

      const again = await s.call(w.tokens.all, c.tool, args);
      expect(again.ok, JSON.stringify(again.error)).toBe(true);
      expect(again.data).toEqual(first.data);
      // The same answer to the byte, not only the same ids.
      expect(again.text).toBe(first.text);
      expect(await footprint(w)).toEqual(after);

      // Activity: the first line as always, then one that says it was a replay, without the
      // arguments, the key or any credits.
      const lines = await activityOf(s, w.connections.all, c.tool);
      expect(lines.map((l) => l.outcome)).toEqual(['allowed', 'allowed']);
      expect(lines[0]!.summary).not.toBe(REPLAY_SUMMARY);
      expect(lines[1]!.summary).toBe(REPLAY_SUMMARY);
      expect(lines[1]!.creditsSpent).toBe(0);
      expect(lines[1]!.code).toBeNull();
      for (const value of Object.values(args)) {
        if (typeof value === 'string' && value.length > 3) expect(lines[1]!.summary).not.toContain(value);
      }
    });
  }
});

it('the repeat of a create_site that filled the plan still answers its site; a new key is refused', async () => {
  const w = await s.workspace();
  const args = { idempotencyKey: keyFor(w, 'full-plan') };
  const first = await s.call(w.tokens.all, 'create_site', args);
  expect(first.ok).toBe(true);
  const full = await footprint(w);
  // The fixture's plan has room for three sites: the first call took the last one.
  expect(full.websites).toBe(3);
  expect((await s.call(w.tokens.all, 'create_site', args)).data).toEqual(first.data);
  const fresh = await s.call(w.tokens.all, 'create_site', { idempotencyKey: keyFor(w, 'full-plan-2') });
  expect(fresh.error?.code).toBe('site_limit_reached');
  expect(await footprint(w)).toEqual(full);
  // The refused call holds no key.
  const held = await db()
    .select({ key: t.idempotencyKeys.key })
    .from(t.idempotencyKeys)
    .where(eq(t.idempotencyKeys.connectionId, w.connections.all));
  expect(held).toEqual([{ key: keyFor(w, 'full-plan') }]);
});

it('without a key every call does the work, as before', async () => {
  const w = await s.workspace();
  const a = await s.call(w.tokens.all, 'create_blog_post', { title: 'Twice', body: 'Two posts.' });
  const b = await s.call(w.tokens.all, 'create_blog_post', { title: 'Twice', body: 'Two posts.' });
  expect(a.ok && b.ok).toBe(true);
  expect(a.data!.pageId).not.toBe(b.data!.pageId);
});

it('the same key with other arguments, or for another tool, is refused with idempotency_conflict and writes nothing', async () => {
  const w = await s.workspace();
  const key = keyFor(w, 'conflict');
  const first = await s.call(w.tokens.all, 'create_page', {
    title: 'Menu',
    slug: 'menu',
    idempotencyKey: key,
  });
  expect(first.ok).toBe(true);
  const before = await footprint(w);

  const other = await s.call(w.tokens.all, 'create_page', {
    title: 'Prices',
    slug: 'prices',
    idempotencyKey: key,
  });
  expect(other.error?.code).toBe('idempotency_conflict');
  expect(other.error?.hint).toMatch(/new idempotencyKey/);
  const elsewhere = await s.call(w.tokens.all, 'create_service', { name: 'Tasting', idempotencyKey: key });
  expect(elsewhere.error?.code).toBe('idempotency_conflict');
  // An own-transaction tool refuses the same way.
  const image = await s.call(w.tokens.all, 'generate_image', { prompt: 'A croissant', idempotencyKey: key });
  expect(image.error?.code).toBe('idempotency_conflict');
  expect(await footprint(w)).toEqual(before);

  const denied = (await activityOf(s, w.connections.all, 'create_page')).filter(
    (l) => l.outcome === 'denied',
  );
  expect(denied.map((l) => l.code)).toEqual(['idempotency_conflict']);
  // The first result still answers the first arguments.
  const again = await s.call(w.tokens.all, 'create_page', {
    title: 'Menu',
    slug: 'menu',
    idempotencyKey: key,
  });
  expect(again.data).toEqual(first.data);
});

it('a refused call gives its key back: the retry runs (in the call’s transaction and in a tool’s own)', async () => {
  const w = await s.workspace({ credits: 0 });
  const key = keyFor(w, 'release');
  const missing = await s.call(w.tokens.all, 'add_section', {
    pageId: 'page_missing',
    type: 'hero',
    idempotencyKey: key,
  });
  expect(missing.error?.code).toBe('not_found');
  const fixed = await s.call(w.tokens.all, 'add_section', {
    pageId: w.pages.home,
    type: 'hero',
    idempotencyKey: key,
  });
  expect(fixed.ok, JSON.stringify(fixed.error)).toBe(true);

  const imageKey = keyFor(w, 'release-image');
  const args = { prompt: 'A bun with poppy seeds', idempotencyKey: imageKey };
  const broke = await s.call(w.tokens.all, 'generate_image', args);
  expect(broke.error?.code).toBe('insufficient_credits');
  expect((await footprint(w)).assets).toBe(0);
  await db().update(t.companies).set({ credits: 5 }).where(eq(t.companies.id, w.companyId));
  const paid = await s.call(w.tokens.all, 'generate_image', args);
  expect(paid.ok, JSON.stringify(paid.error)).toBe(true);
  expect(paid.data!.creditsLeft).toBe(4);
  const replay = await s.call(w.tokens.all, 'generate_image', args);
  expect(replay.data).toEqual(paid.data);
  expect(await footprint(w)).toMatchObject({ assets: 1, credits: 4 });
});

it('generate_image with one key is charged once, also when the repeat arrives while the first still runs', async () => {
  const w = await s.workspace({ credits: 3 });
  const args = {
    prompt: 'Cinnamon rolls in the morning light',
    aspect: 'landscape',
    idempotencyKey: keyFor(w, 'img'),
  };
  const [a, b] = await Promise.all([
    s.call(w.tokens.all, 'generate_image', args),
    s.call(w.tokens.all, 'generate_image', args),
  ]);
  expect(a.ok && b.ok, JSON.stringify([a.error, b.error])).toBe(true);
  expect(b.data).toEqual(a.data);
  const c = await s.call(w.tokens.all, 'generate_image', args);
  expect(c.data).toEqual(a.data);
  expect(await footprint(w)).toMatchObject({ assets: 1, credits: 2 });
  const lines = await activityOf(s, w.connections.all, 'generate_image');
  expect(lines.reduce((n, l) => n + l.creditsSpent, 0)).toBe(1);
  expect(lines.filter((l) => l.summary === REPLAY_SUMMARY)).toHaveLength(2);
});

it('concurrent create_page calls with one key create one page and all answer its id (both backends)', async () => {
  const w = await s.workspace();
  const args = { title: 'At once', slug: 'at-once', idempotencyKey: keyFor(w, 'at-once') };
  const results = await Promise.all(
    Array.from({ length: 6 }, () => s.call(w.tokens.all, 'create_page', args)),
  );
  for (const r of results) expect(r.ok, JSON.stringify(r.error)).toBe(true);
  expect(new Set(results.map((r) => r.data!.pageId)).size).toBe(1);
  expect((await footprint(w)).pages).toBe(2);
});

it('another connection’s key is its own', async () => {
  const w = await s.workspace();
  const args = { title: 'Summer hours', body: 'Open late.', idempotencyKey: keyFor(w, 'shared') };
  const one = await s.call(w.tokens.all, 'create_blog_post', args);
  const two = await s.call(w.tokens.default, 'create_blog_post', args);
  expect(one.ok && two.ok).toBe(true);
  expect(two.data!.pageId).not.toBe(one.data!.pageId);
  // Each connection's repeat answers its own first result.
  expect((await s.call(w.tokens.default, 'create_blog_post', args)).data).toEqual(two.data);
  expect((await s.call(w.tokens.all, 'create_blog_post', args)).data).toEqual(one.data);
});

it('the 2025 wire’s direct tools/call path replays the same way', async () => {
  const w = await s.workspace();
  const body = {
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: {
      name: 'create_service',
      arguments: { name: 'Cake workshop', idempotencyKey: keyFor(w, 'wire') },
    },
  };
  const first = await (await postMcp(s.mcpUrl, w.tokens.all, body)).json();
  const again = await (await postMcp(s.mcpUrl, w.tokens.all, body)).json();
  expect(first.result.structuredContent.ok).toBe(true);
  expect(again.result).toEqual(first.result);
  expect((await footprint(w)).services).toBe(1);
});

it('a key must be 8 to 200 characters, and only tools that create or spend take one', async () => {
  const w = await s.workspace();
  const before = await footprint(w);
  const short = await s.call(w.tokens.all, 'create_page', { title: 'Short', idempotencyKey: 'abc' });
  expect(short.error?.code).toBe('invalid_input');
  const long = await s.call(w.tokens.all, 'create_page', { title: 'Long', idempotencyKey: 'k'.repeat(201) });
  expect(long.error?.code).toBe('invalid_input');
  const edit = await s.call(w.tokens.all, 'update_page_seo', {
    pageId: w.pages.home,
    title: 'Home',
    idempotencyKey: keyFor(w, 'edit'),
  });
  expect(edit.error?.code).toBe('invalid_input');
  expect(await footprint(w)).toEqual(before);
});

it('keys answer for 24 hours; the retention job then forgets them and the key runs anew', async () => {
  // Two days behind real time, so the sweep at this clock reaches only this test's key.
  const time = testClock(Date.now() - 48 * 3_600_000);
  const late = await startTestServer({ seed: false, clock: time.clock });
  try {
    const w = await late.workspace();
    const args = { title: 'Holidays', body: 'Closed in August.', idempotencyKey: keyFor(w, 'expiry') };
    const first = await late.call(w.tokens.all, 'create_blog_post', args);
    expect(first.ok).toBe(true);
    time.advance(23 * 3_600_000);
    expect(await runJob(late, 'idempotency-keys')).toBe(0);
    expect((await late.call(w.tokens.all, 'create_blog_post', args)).data).toEqual(first.data);

    time.advance(2 * 3_600_000);
    const held = () =>
      db().select().from(t.idempotencyKeys).where(eq(t.idempotencyKeys.connectionId, w.connections.all));
    expect(await held()).toHaveLength(1);
    expect(await runJob(late, 'idempotency-keys')).toBe(1);
    expect(await held()).toHaveLength(0);
    const anew = await late.call(w.tokens.all, 'create_blog_post', args);
    expect(anew.ok).toBe(true);
    expect(anew.data!.pageId).not.toBe(first.data!.pageId);
  } finally {
    await late.close();
  }
});
