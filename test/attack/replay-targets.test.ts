// Attack suite, round 4: a replay that outlives the websites its call touched. A keyed call is answered
// again from its stored result only after every website the first call touched is checked as it is now:
// the call's own site (the gate, as before), the site it merged into (`mergeIntoWebsiteId` of
// import_site and migrate_site_from_url, re-authorized under the tool's rule) and the site it created
// (create_site, import_site, migrate_site_from_url: still there, or the answer says it was deleted and
// can be restored). Before, the replay of a merge into a site the owner had since deleted returned the
// merge report and said the connection still reached it, and the replay of a create_site answered a
// deleted site's id. Each refused replay writes nothing and its Activity line says denied.
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activity, restorePoints, sections, websites } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { type ServedSite, serveSite } from '../fixtures/serve.js';
import { bigSite } from '../portable/fixtures.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
let source: ServedSite;
beforeAll(async () => {
  source = await serveSite('resume');
  s = await startTestServer({ seed: false, env: { CRAWL_ALLOW_HOSTS: source.hostPort } });
});
afterAll(async () => {
  await s?.close();
  await source?.close();
});
const db = () => s.sg.deps.services.db;

/** The owner deletes a site the way the product offers it: the console, with the typed name. */
async function ownerDeletes(d: Demo, websiteId: string) {
  const [site] = await db().select({ name: websites.name }).from(websites).where(eq(websites.id, websiteId));
  const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
  await web.get(`/dashboard/sites/${websiteId}`);
  const r = await web.post(`/dashboard/sites/${websiteId}/delete`, { name: site!.name });
  expect(r.status).toBe(303);
}

/** What a replay could have written: the workspace's live sites, the target's sections and restore points. */
async function footprint(d: Demo, target: string) {
  const n = async (q: Promise<Array<{ n: number }>>) => Number((await q)[0]?.n ?? 0);
  return {
    sites: await n(
      db()
        .select({ n: count() })
        .from(websites)
        .where(and(eq(websites.companyId, d.companyId), isNull(websites.deletedAt))),
    ),
    sections: await n(db().select({ n: count() }).from(sections).where(eq(sections.websiteId, target))),
    restorePoints: await n(
      db().select({ n: count() }).from(restorePoints).where(eq(restorePoints.websiteId, target)),
    ),
  };
}

async function lastLine(d: Demo, tool: string) {
  const rows = await db()
    .select()
    .from(activity)
    .where(and(eq(activity.companyId, d.companyId), eq(activity.tool, tool)));
  return rows.sort((a, b) => a.id - b.id).at(-1);
}

const MERGING = {
  import_site: (d: Demo) => ({
    websiteId: d.websites.main,
    site: bigSite(1, 2),
    mergeIntoWebsiteId: d.websites.events,
  }),
  migrate_site_from_url: (d: Demo) => ({
    websiteId: d.websites.main,
    url: `${source.base}/`,
    maxPages: 2,
    mergeIntoWebsiteId: d.websites.events,
  }),
} as const;

describe('a replay re-authorizes the site its call merged into', () => {
  it.each(Object.keys(MERGING) as Array<keyof typeof MERGING>)(
    '%s: after the owner deleted the merge target, the replay answers not_found like a fresh call',
    async (tool) => {
      const d = await s.seed();
      const args = { ...MERGING[tool](d), idempotencyKey: `merge-${uniqueTag()}` };
      const first = await s.call(d.tokens.workspace, tool, args);
      expect(first.ok, JSON.stringify(first.error)).toBe(true);
      expect(first.data!.mode).toBe('merged');
      // While the target stands, the replay is the first answer.
      const again = await s.call(d.tokens.workspace, tool, args);
      expect(again.data).toEqual(first.data);

      await ownerDeletes(d, d.websites.events);
      const { idempotencyKey: _k, ...fresh } = args;
      expect((await s.call(d.tokens.workspace, tool, fresh)).error?.code).toBe('not_found');
      await s.sg.deps.activity.flush();
      const before = await footprint(d, d.websites.events);
      const replay = await s.call(d.tokens.workspace, tool, args);
      expect(replay.ok).toBe(false);
      expect(replay.error?.code).toBe('not_found');
      expect(JSON.stringify(replay)).not.toContain('restorePointId');
      expect(await footprint(d, d.websites.events)).toEqual(before);
      await s.sg.deps.activity.flush();
      expect(await lastLine(d, tool)).toMatchObject({ outcome: 'denied', code: 'not_found' });
    },
    120_000,
  );
});

const CREATING = {
  create_site: (_d: Demo) => ({}),
  import_site: (d: Demo) => ({ websiteId: d.websites.main, site: bigSite(1, 1) }),
  migrate_site_from_url: (d: Demo) => ({ websiteId: d.websites.main, url: `${source.base}/`, maxPages: 2 }),
} as const;

describe('a replay answers the present state of the site its call created', () => {
  it.each(Object.keys(CREATING) as Array<keyof typeof CREATING>)(
    '%s: after the owner deleted the new site, the replay says so and how to restore it',
    async (tool) => {
      const d = await s.seed();
      const args = { ...CREATING[tool](d), idempotencyKey: `create-${uniqueTag()}` };
      const first = await s.call(d.tokens.workspace, tool, args);
      expect(first.ok, JSON.stringify(first.error)).toBe(true);
      const created = first.data!.websiteId as string;
      expect(created).not.toBe(d.websites.main);

      await ownerDeletes(d, created);
      const before = await footprint(d, created);
      const replay = await s.call(d.tokens.workspace, tool, args);
      expect(replay.ok).toBe(false);
      expect(replay.error?.code).toBe('not_found');
      expect(replay.error?.message).toContain('deleted');
      expect(replay.error?.hint).toMatch(/restore/i);
      expect(JSON.stringify(replay)).not.toContain(`/editor/${created}`);
      // Nothing was created in its place.
      expect(await footprint(d, created)).toEqual(before);

      // Restored, the site stands again, and so does the first answer.
      const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
      await web.get('/');
      expect((await web.post(`/dashboard/sites/${created}/restore`, {})).status).toBe(303);
      const restored = await s.call(d.tokens.workspace, tool, args);
      expect(restored.data).toEqual(first.data);
    },
    120_000,
  );

  it('create_site from a single-site connection: the new site it cannot reach is still checked', async () => {
    const d = await s.seed();
    const args = { idempotencyKey: `single-${uniqueTag()}` };
    const first = await s.call(d.tokens.all, 'create_site', args);
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    // Standing, the replay is the first answer although this connection cannot reach the site.
    expect((await s.call(d.tokens.all, 'create_site', args)).data).toEqual(first.data);
    await ownerDeletes(d, first.data!.websiteId as string);
    const replay = await s.call(d.tokens.all, 'create_site', args);
    expect(replay.error?.code).toBe('not_found');
    expect(replay.error?.hint).toMatch(/restore/i);
  });
});
