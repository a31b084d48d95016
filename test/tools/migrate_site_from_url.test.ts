// migrate_site_from_url: crawls a live site and creates an unpublished draft site from it in one call.
// The source is the one-page résumé fixture (test/fixtures/sites/resume) served on 127.0.0.1, which the
// crawler reaches only because its host:port is on CRAWL_ALLOW_HOSTS; the crawl and conversion in
// depth are tested in test/migrate/.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pages, sections, websites } from '../../src/db/schema.js';
import { type ServedSite, serveSite } from '../fixtures/serve.js';
import { toolKit } from './kit.js';

// The kit reads its env in its own beforeAll, registered after this one: the site is up by then.
const env: Record<string, string> = {};
let site: ServedSite;
let other: ServedSite;
beforeAll(async () => {
  site = await serveSite('resume');
  // A second local site, left off the allow-list: a private address the crawler must refuse.
  other = await serveSite('resume');
  env.CRAWL_ALLOW_HOSTS = site.hostPort;
});
afterAll(async () => {
  await site?.close();
  await other?.close();
});
const kit = toolKit({ env });

it('matches its contract snapshot', () => kit.expectContract('migrate_site_from_url'));

it('crawls the site and creates the draft with its page and sections', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.workspace, 'migrate_site_from_url', {
    websiteId: w.websites.main,
    url: `${site.base}/`,
  });
  expect(r.error).toBeUndefined();
  expect(r.data).toMatchObject({ mode: 'created', pages: 1, pagesFetched: 1, pagesFailed: 0 });
  const id = r.data!.websiteId as string;
  const [row] = await kit.db.select().from(websites).where(eq(websites.id, id));
  expect(row).toMatchObject({ companyId: w.companyId, publishedRev: null });
  const [home] = await kit.db.select().from(pages).where(eq(pages.websiteId, id));
  expect(home).toMatchObject({ slug: 'home' });
  const secs = await kit.db.select().from(sections).where(eq(sections.pageId, home!.id));
  expect(secs.length).toBe(r.data!.sections);
  expect(secs.map((s) => s.type)).toContain('hero');
  expect(JSON.stringify(secs.map((s) => s.content))).toContain('Jordan');
});

it('refuses a private address not on the allow-list (unsafe_url), fetching and writing nothing', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'unsafe_url',
    () =>
      kit.call(w.tokens.workspace, 'migrate_site_from_url', {
        websiteId: w.websites.main,
        url: `${other.base}/`,
      }),
    { tool: 'migrate_site_from_url', companyIds: [w.companyId] },
  );
  expect(other.hits.size).toBe(0);
});
