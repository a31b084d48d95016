// Issue 10 item 8: one site-limit rule for every tool that creates a site. create_site, import_site
// and migrate_site_from_url, on a workspace whose plan is full, give the same refusal (the one domain
// function's), before any work: no site, no crawl, nothing written.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { companies, websites } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { bigSite } from '../portable/fixtures.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

it('create_site, import_site and migrate_site_from_url refuse a full plan with one rule and one answer', async () => {
  const w = await s.workspace();
  const db = s.sg.deps.services.db;
  await db.update(companies).set({ siteLimit: 2 }).where(eq(companies.id, w.companyId));
  const sites = async () =>
    Number((await db.select({ n: count() }).from(websites).where(eq(websites.companyId, w.companyId)))[0]!.n);
  expect(await sites()).toBe(2);

  const created = await s.call(w.tokens.all, 'create_site', {});
  const imported = await s.call(w.tokens.all, 'import_site', {
    websiteId: w.websites.main,
    site: bigSite(1, 1),
  });
  const migrated = await s.call(w.tokens.all, 'migrate_site_from_url', {
    websiteId: w.websites.main,
    url: 'https://example.invalid/',
  });
  for (const r of [created, imported, migrated]) expect(r.error?.code).toBe('site_limit_reached');
  expect(imported.error).toEqual(created.error);
  expect(migrated.error).toEqual(created.error);
  expect(await sites()).toBe(2);
});
