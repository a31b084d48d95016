// One site-limit rule (R-SITE-2) for every tool that creates a site. The tools declare
// `createsSite`; the gate applies the plan's limit on the live count before `run` does any work, and the
// committing transaction checks again (siteRoom). create_site, import_site and migrate_site_from_url,
// on a workspace whose plan is full, give the same refusal: no site, no fetch, nothing written.
import { count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callerForToken } from '../../src/auth/connections.js';
import { assets, companies, pages, websites } from '../../src/db/schema.js';
import { callTool } from '../../src/mcp/call.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { createRegistry } from '../../src/mcp/registry.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { type AssetServer, bigSite, sampleSite, startAssetServer } from '../portable/fixtures.js';

let s: TestServer;
let origin: AssetServer;
beforeAll(async () => {
  origin = await startAssetServer({
    '/': {
      type: 'text/html',
      body: '<html><head><title>Shop</title></head><body><h1>Hello</h1></body></html>',
    },
  });
  // The origin is allowed: without the gate's refusal the crawl and the asset fetches would reach it.
  s = await startTestServer({ seed: false, env: { CRAWL_ALLOW_HOSTS: origin.hostPort } });
});
afterAll(async () => {
  await s?.close();
  await origin?.close();
});

const requests = () => [...origin.hits.values()].reduce((a, b) => a + b, 0);

async function fullWorkspace() {
  const w = await s.workspace();
  const db = s.sg.deps.services.db;
  await db.update(companies).set({ siteLimit: 2 }).where(eq(companies.id, w.companyId));
  const footprint = async () => {
    const n = async (q: Promise<Array<{ n: number }>>) => Number((await q)[0]!.n);
    const mine = eq(websites.companyId, w.companyId);
    return {
      websites: await n(db.select({ n: count() }).from(websites).where(mine)),
      pages: await n(
        db
          .select({ n: count() })
          .from(pages)
          .innerJoin(websites, eq(websites.id, pages.websiteId))
          .where(mine),
      ),
      assets: await n(
        db
          .select({ n: count() })
          .from(assets)
          .innerJoin(websites, eq(websites.id, assets.websiteId))
          .where(mine),
      ),
    };
  };
  return { w, footprint };
}

it('create_site, import_site and migrate_site_from_url refuse a full plan with one rule and one answer, before any fetch', async () => {
  const { w, footprint } = await fullWorkspace();
  const before = await footprint();
  expect(before.websites).toBe(2);
  const hits = requests();

  const created = await s.call(w.tokens.all, 'create_site', {});
  const imported = await s.call(w.tokens.all, 'import_site', {
    websiteId: w.websites.main,
    site: sampleSite(origin.base, 'limit'),
  });
  const migrated = await s.call(w.tokens.all, 'migrate_site_from_url', {
    websiteId: w.websites.main,
    url: `${origin.base}/`,
  });
  for (const r of [created, imported, migrated]) expect(r.error?.code).toBe('site_limit_reached');
  expect(imported.error).toEqual(created.error);
  expect(migrated.error).toEqual(created.error);
  // Refused before any work: the origin saw no request (no crawl, no asset fetch), nothing was written.
  expect(requests()).toBe(hits);
  expect(await footprint()).toEqual(before);
});

it('the gate applies a declared createsSite rule before run, with the same refusal', async () => {
  const { w, footprint } = await fullWorkspace();
  let runs = 0;
  const siteMaker = defineTool({
    name: 'site_maker',
    scope: 'workspace:write',
    area: 'workspace',
    role: 'editor',
    workspaceLevel: true,
    createsSite: true,
    title: 'Site maker',
    description: 'Test only: counts how often it runs.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    transaction: 'own',
    input: z.object({}),
    output: z.object({}),
    activity: () => 'Made nothing',
    run: async () => {
      runs += 1;
      return {};
    },
  });
  const caller = (await callerForToken(s.sg.deps.services.db, w.tokens.all))!;
  const deps = { ...s.sg.deps, registry: createRegistry([siteMaker]) };
  const before = await footprint();
  const r = await callTool(deps, caller, deps.registry.get('site_maker')!, {});
  expect(r.isError).toBe(true);
  expect((r.structuredContent as { error?: { code: string } }).error?.code).toBe('site_limit_reached');
  expect(runs).toBe(0);
  const created = await s.call(w.tokens.all, 'create_site', {});
  expect((r.structuredContent as { error?: unknown }).error).toEqual(created.error);
  expect(await footprint()).toEqual(before);

  // With room on the plan the same declaration lets the call through to run.
  await s.sg.deps.services.db.update(companies).set({ siteLimit: 3 }).where(eq(companies.id, w.companyId));
  expect((await callTool(deps, caller, deps.registry.get('site_maker')!, {})).isError).toBeFalsy();
  expect(runs).toBe(1);
});

it('a merge creates no site: a full plan does not refuse import_site with mergeIntoWebsiteId', async () => {
  const { w, footprint } = await fullWorkspace();
  const r = await s.call(w.tokens.all, 'import_site', {
    websiteId: w.websites.main,
    mergeIntoWebsiteId: w.websites.main,
    site: bigSite(1, 1),
  });
  expect(r.ok).toBe(true);
  expect(r.data?.mode).toBe('merged');
  expect((await footprint()).websites).toBe(2);
});
