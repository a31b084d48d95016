// migrate_site_from_url end to end (R-MIG-1, R-MIG-4): a multi-page fixture site on 127.0.0.1 is crawled
// (robots.txt respected, redirect loop and 404 counted, scripts, booking widget, embed and form left
// out and reported), converted to sections and created as a draft in one call; the report is exact.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sections } from '../../src/db/schema.js';
import { type Envelope, type TestServer, startTestServer } from '../helpers/server.js';
import { footprint } from '../portable/helpers.js';
import { type FixtureSite, startFixtureSite } from './fixture-site.js';

let s: TestServer;
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
  s = await startTestServer({ seed: false, env: { CRAWL_ALLOW_HOSTS: site.hostPort } });
});
afterAll(async () => {
  await s?.close();
  await site?.close();
});

describe('migrate_site_from_url', () => {
  let websiteId = '';
  let demo: Awaited<ReturnType<TestServer['workspace']>>;

  it('crawls, converts and creates the draft; the report is right to the number', async () => {
    demo = await s.workspace();
    const client = await s.client(demo.tokens.workspace);
    const progress: string[] = [];
    const res = await client.callTool(
      { name: 'migrate_site_from_url', arguments: { websiteId: demo.websites.main, url: `${site.base}/` } },
      { onprogress: (p) => void progress.push(String(p.message)) },
    );
    const env = res.structuredContent as Envelope;
    expect(env.ok, JSON.stringify(env.error)).toBe(true);
    const d = env.data!;
    expect({
      pagesFetched: d.pagesFetched,
      pagesFailed: d.pagesFailed,
      truncated: d.truncated,
      assetsSkipped: d.assetsSkipped,
      actionsRequired: d.actionsRequired,
    }).toEqual({
      pagesFetched: 6,
      pagesFailed: 2,
      truncated: false,
      assetsSkipped: 2,
      actionsRequired: [
        'Re-add the embedded content from www.youtube.com on /menu (embeds are not carried over).',
        'Re-create the contact form that was on /contact (a contact section with the standard form was added).',
        'Re-add the booking widget that was on /booking (booking widgets are not carried over).',
        'Re-add any third-party scripts you still need (analytics, chat): 2 scripts were left out.',
        '2 pages could not be fetched and were not migrated; links to them were turned into plain text (see failedPages).',
        'Links to 4 addresses of the old site that were not migrated (robots.txt, limits or files) became plain text: /admin/panel, /files/menu.pdf, /private/secret, /staff. Re-link them if you still need them.',
        'Upload 2 images that could not be brought in, where you still want them (see skippedAssets).',
      ],
    });
    // Every failed page and every skipped image, with its address and reason.
    expect(d.failedPages).toEqual([
      { url: `${site.base}/loop-a`, reason: 'redirect_loop', detail: 'The page redirects in a loop.' },
      { url: `${site.base}/missing`, reason: 'status', detail: 'The server answered 404.' },
    ]);
    expect(d.skippedAssets).toEqual([
      { url: `${site.base}/img/fake.png`, reason: 'it is not a JPEG, PNG, WebP or GIF image.' },
      { url: `${site.base}/img/missing.png`, reason: 'The server answered 404.' },
    ]);
    expect(d).toMatchObject({ mode: 'created', pages: 6 });
    expect(Object.keys(d.assets)).toHaveLength(3);
    websiteId = d.websiteId;
    expect(progress.length).toBeGreaterThanOrEqual(6);
    expect(progress).toContain('Fetched /about');

    // robots.txt was read and obeyed; nothing off-site or non-page was requested.
    expect(site.hits.get('/robots.txt')).toBe(1);
    expect(site.hits.get('/private/secret')).toBeUndefined();
    expect(site.hits.get('/admin/panel')).toBeUndefined();
    expect(site.hits.get('/files/menu.pdf')).toBeUndefined();
    expect(site.hits.get('/js/analytics.js')).toBeUndefined();
    expect(site.hits.get('/loop-a')).toBe(1);
    expect(site.hits.get('/staff')).toBe(1); // redirects into /private: not followed
  });

  it('builds the pages from the service’s own sections, without scripts, widgets or embeds', async () => {
    const list = await s.call(demo.tokens.workspace, 'list_pages', { websiteId });
    expect(list.data!.pages.map((p: { slug: string }) => p.slug)).toEqual([
      'home',
      'about',
      'menu',
      'contact',
      'booking',
      'gallery',
    ]);
    const all: Array<{ type: string; content: Record<string, unknown> }> = [];
    for (const p of list.data!.pages) {
      const page = await s.call(demo.tokens.workspace, 'get_page', { websiteId, pageId: p.pageId });
      all.push(...page.data!.sections);
    }
    const home = all[0]!;
    expect(home.type).toBe('hero');
    expect(home.content).toMatchObject({
      heading: 'Harbor Bakery',
      subheading: 'Fresh bread every morning.',
    });
    expect(home.content.imageUrl).toMatch(/^asset_[0-9A-Za-z]{16}$/);
    expect(all.map((x) => x.type)).toEqual(expect.arrayContaining(['hero', 'text', 'gallery', 'contact']));
    const json = JSON.stringify(all);
    for (const bad of ['<script', 'calendly', 'youtube', 'iframe', 'dataLayer', '127.0.0.1'])
      expect(json).not.toContain(bad);
    const contact = all.find((x) => x.type === 'contact');
    expect(contact!.content).toMatchObject({ email: 'hello@harbor.test', showForm: true });
    const brand = await s.call(demo.tokens.workspace, 'get_brand', { websiteId });
    expect(brand.data!.palette).toEqual({ primary: '#8a4b2a' });
    const gallery = all.filter((x) => x.type === 'gallery').at(-1)!;
    expect((gallery.content.images as unknown[]).length).toBe(1); // fake and missing images skipped
  });

  it('re-syncs with mergeIntoWebsiteId under the conflict rules', async () => {
    const [row] = await s.sg.deps.services.db
      .select()
      .from(sections)
      .where(and(eq(sections.websiteId, websiteId), eq(sections.externalKey, 'about#our-story')));
    await s.sg.deps.services.db
      .update(sections)
      .set({ content: { heading: 'Our story', body: 'Edited in the app.' } })
      .where(eq(sections.id, row!.id));
    const r = await s.call(demo.tokens.workspace, 'migrate_site_from_url', {
      websiteId: demo.websites.main,
      url: `${site.base}/`,
      mergeIntoWebsiteId: websiteId,
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.data!.merge).toMatchObject({ inserted: 0, updated: 0, conflicts: ['about#our-story'] });
    expect(r.data!.merge.unchanged).toBeGreaterThan(5);
  });

  it('refuses an unsafe start address and a robots-disallowed one, writing nothing', async () => {
    const fresh = await s.workspace();
    const before = await footprint(s, fresh.companyId);
    const unsafe = await s.call(fresh.tokens.default, 'migrate_site_from_url', {
      url: 'http://169.254.169.254/',
    });
    expect(unsafe.error?.code).toBe('unsafe_url');
    const loop = await s.call(fresh.tokens.default, 'migrate_site_from_url', { url: 'http://localhost/' });
    expect(loop.error?.code).toBe('unsafe_url');
    const robots = await s.call(fresh.tokens.default, 'migrate_site_from_url', {
      url: `${site.base}/private/secret`,
    });
    expect(robots.error?.code).toBe('robots_disallowed');
    expect(site.hits.get('/private/secret')).toBeUndefined();
    expect(await footprint(s, fresh.companyId)).toEqual(before);
  });

  it('is bounded by maxPages and says so', async () => {
    const fresh = await s.workspace();
    const r = await s.call(fresh.tokens.default, 'migrate_site_from_url', {
      url: `${site.base}/`,
      maxPages: 3,
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.data!.pagesFetched + r.data!.pagesFailed).toBeLessThanOrEqual(3);
    expect(r.data!.truncated).toBe(true);
  });
});
