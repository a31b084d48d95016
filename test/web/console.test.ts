// The owner's site console (/dashboard/sites/:websiteId): deleting draft pages and posts, publishing
// exactly the reviewed revision, unpublishing, deleting a site (offline at once, not_found to every
// tool, out of list_sites and the site limit), restoring it within 30 days, and the retention sweep
// purging it with its blobs afterwards. Every action: the owner succeeds; an editor, a viewer and another
// tenant's owner are refused with nothing changed; without the CSRF token nothing happens.
import { request } from 'node:http';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { activity, assets, companies, domains, pages, sections, websites } from '../../src/db/schema.js';
import { canonicalHostFor } from '../../src/domain/domains/redirect.js';
import { liveWebsiteForHost } from '../../src/domain/domains/site-host.js';
import { sweepBlobs } from '../../src/domain/library/blobs.js';
import { purgeDeletedSites } from '../../src/domain/sites/delete.js';
import { createRegistry } from '../../src/mcp/registry.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { type WebSession, signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const as = (who: { email: string; password: string }) => signIn(s.url, who.email, who.password);
const consoleOf = (id: string) => `/dashboard/sites/${id}`;

/** Everything an action could change on one website, to show a refusal changed nothing. */
async function stateOf(websiteId: string) {
  const [site] = await db().select().from(websites).where(eq(websites.id, websiteId));
  const pageRows = await db().select().from(pages).where(eq(pages.websiteId, websiteId));
  const [n] = await db().select({ n: count() }).from(sections).where(eq(sections.websiteId, websiteId));
  return { site, pages: pageRows.map((p) => p.id).sort(), sections: n!.n };
}

/** A page with a valid CSRF token of this session (any signed-in page carries the sign-out form). */
async function withToken(web: WebSession) {
  await web.get('/');
  return web;
}

describe('the site console', () => {
  it('is an HTML5 page listing the draft pages and posts, linked from the home', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    const home = await web.get('/');
    expect(home.html.startsWith('<!doctype html>')).toBe(true);
    expect(home.html).toContain(`href="${consoleOf(d.websites.main)}"`);
    const page = await web.get(consoleOf(d.websites.main));
    expect(page.status).toBe(200);
    expect(page.html.startsWith('<!doctype html>')).toBe(true);
    for (const id of [d.pages.home, d.pages.about, d.pages.post])
      expect(page.html).toContain(`data-page="${id}"`);
  });

  it('deletes a page from the draft behind a confirmation; the live site keeps it until the next publish', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    const confirm = await web.get(`${consoleOf(d.websites.main)}/pages/${d.pages.about}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('confirm-delete-page');
    const liveBefore = await fetch(`${s.url}/sites/${d.websites.main}/about`);
    expect(liveBefore.status).toBe(200);
    const r = await web.post(`${consoleOf(d.websites.main)}/pages/${d.pages.about}/delete`);
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${consoleOf(d.websites.main)}?done=page_deleted`);
    expect((await stateOf(d.websites.main)).pages).not.toContain(d.pages.about);
    expect(await db().select().from(sections).where(eq(sections.pageId, d.pages.about))).toEqual([]);
    // Still live, and the publish review lists it as going offline.
    expect((await fetch(`${s.url}/sites/${d.websites.main}/about`)).status).toBe(200);
    const review = await web.get(`${consoleOf(d.websites.main)}/publish`);
    expect(review.html).toContain('id="removed-pages"');
    const lines = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, d.websites.main), eq(activity.tool, 'delete_page')));
    expect(lines).toHaveLength(1);
    // The agent side has no tool for it.
    const client = await s.client(d.tokens.all);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).filter((n) => /delete|remove|erase/.test(n))).toEqual([]);
  });

  it('publishes exactly the reviewed revision; a draft that moved on shows the new review instead', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    const edit = (heading: string) =>
      s.call(d.tokens.default, 'update_section_text', {
        pageId: d.pages.home,
        sectionId: d.sections.hero,
        text: { heading },
      });
    expect((await edit('Reviewed heading')).ok).toBe(true);
    const review = await web.get(`${consoleOf(d.websites.main)}/publish`);
    expect(review.status).toBe(200);
    // The approval page's own review: the changed words marked.
    expect(review.html).toContain('id="publish-review"');
    expect(review.html).toMatch(/<ins>[^<]*Reviewed/);
    const revision = /name="revision" value="([^"]+)"/.exec(review.html)![1]!;

    // The draft moves on before the owner presses Publish: nothing is published, the new review shows.
    expect((await edit('Moved-on heading')).ok).toBe(true);
    const before = await stateOf(d.websites.main);
    const moved = await web.post(`${consoleOf(d.websites.main)}/publish`, { revision });
    expect(moved.status).toBe(409);
    expect(moved.html).toContain('id="moved"');
    expect(moved.html).toContain('Moved-on');
    expect((await stateOf(d.websites.main)).site!.publishedRev).toBe(before.site!.publishedRev);

    const fresh = /name="revision" value="([^"]+)"/.exec(moved.html)![1]!;
    const ok = await web.post(`${consoleOf(d.websites.main)}/publish`, { revision: fresh });
    expect(ok.status).toBe(303);
    const live = await (await fetch(`${s.url}/sites/${d.websites.main}/`)).text();
    expect(live).toContain('Moved-on heading');
    const after = await stateOf(d.websites.main);
    expect(after.site!.publishedRev).toBe(after.site!.draftRev);
  });

  it('unpublishes: the live site answers 404, the draft is kept', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    const confirm = await web.get(`${consoleOf(d.websites.main)}/unpublish`);
    expect(confirm.html).toContain('confirm-unpublish');
    const r = await web.post(`${consoleOf(d.websites.main)}/unpublish`);
    expect(r.status).toBe(303);
    expect((await fetch(`${s.url}/sites/${d.websites.main}/`)).status).toBe(404);
    expect((await stateOf(d.websites.main)).pages.length).toBeGreaterThan(0);
    // Nothing to unpublish any more.
    await web.get(consoleOf(d.websites.main));
    expect((await web.post(`${consoleOf(d.websites.main)}/unpublish`)).status).toBe(409);
  });
});

/** Plausible arguments for each tool that takes a websiteId (the gate runs after input validation). */
const ARGS: Record<string, Record<string, unknown>> = {
  add_section: { pageId: 'page_x', type: 'text' },
  connect_domain: { hostname: 'example.com' },
  create_blog_post: { title: 'T', body: 'B' },
  create_page: { title: 'T' },
  create_product: { name: 'P', priceCents: 100 },
  create_service: { name: 'S' },
  crm_update: { record: 'lead', id: 'lead_x', handled: true },
  generate_image: { prompt: 'a cake' },
  get_page: { pageId: 'page_x' },
  get_section_json: { pageId: 'page_x', sectionId: 'sec_x' },
  import_site: {
    site: { version: 1, name: 'X', businessName: 'X', config: {}, theme: {}, fonts: {}, pages: [] },
  },
  migrate_site_from_url: { url: 'https://example.com/' },
  move_section: { pageId: 'page_x', sectionId: 'sec_x', position: 0 },
  prepare_grant_access: { email: 'a@example.com', level: 'viewer' },
  prepare_publish_product: { productId: 'prod_x' },
  prepare_search_visibility: { visible: true },
  prepare_send_document: { documentId: 'doc_x' },
  replace_section_content: { pageId: 'page_x', sectionId: 'sec_x', content: {}, clientRev: 1 },
  set_primary_domain: { hostname: 'example.com' },
  set_section_hidden: { pageId: 'page_x', sectionId: 'sec_x', hidden: true },
  set_section_layout: { pageId: 'page_x', sectionId: 'sec_x', layout: {} },
  update_business_name: { name: 'N' },
  update_page_seo: { pageId: 'page_x' },
  update_section_text: { pageId: 'page_x', sectionId: 'sec_x', text: { heading: 'x' } },
};

describe('deleting a site', () => {
  it('takes it offline at once; every tool answers not_found; it leaves list_sites and the site limit', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    await web.get(consoleOf(d.websites.main));
    // The typed confirmation must be the name.
    const wrong = await web.post(`${consoleOf(d.websites.main)}/delete`, { name: 'Harbor' });
    expect(wrong.status).toBe(400);
    expect((await stateOf(d.websites.main)).site!.deletedAt).toBeNull();
    await web.get(consoleOf(d.websites.events));
    const r = await web.post(`${consoleOf(d.websites.events)}/delete`, { name: 'Harbor Bakery Events' });
    expect(r.status).toBe(303);
    // The demo's verified custom domain serves the live site until the site is deleted.
    const [domain] = await db().select().from(domains).where(eq(domains.websiteId, d.websites.main));
    expect(await liveWebsiteForHost(db(), domain!.hostname)).toBe(d.websites.main);
    const byHost = () =>
      new Promise<string>((resolve, reject) => {
        const u = new URL(s.url);
        const req = request(
          { host: u.hostname, port: u.port, path: '/', headers: { host: domain!.hostname } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              body += c;
            });
            res.on('end', () => resolve(body));
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await byHost()).toContain('Fresh bread every morning');
    await web.get(consoleOf(d.websites.main));
    const main = await web.post(`${consoleOf(d.websites.main)}/delete`, { name: 'Harbor Bakery' });
    expect(main.status).toBe(303);
    expect(await liveWebsiteForHost(db(), domain!.hostname)).toBeNull();
    expect(await canonicalHostFor(db(), domain!.hostname)).toBeNull();
    expect(await byHost()).not.toContain('Fresh bread every morning');

    // Offline at once, to visitors and to the draft preview.
    expect((await fetch(`${s.url}/sites/${d.websites.main}/`)).status).toBe(404);
    expect((await web.get(`/editor/${d.websites.main}/`)).status).toBe(404);
    expect((await web.get(consoleOf(d.websites.main))).status).toBe(404);

    // Every tool that names a website answers not_found for it: a single-site connection of the
    // deleted site, and a workspace connection naming it.
    const tools = createRegistry()
      .all()
      .map((t) => t.def);
    for (const def of tools) {
      if (
        def.workspaceLevel ||
        def.name === 'confirm_pending_action' ||
        def.name === 'prepare_create_company'
      )
        continue;
      const args = ARGS[def.name] ?? {};
      const single = await s.call(d.tokens.all, def.name, args);
      expect(single.error?.code, `${def.name} (single site)`).toBe('not_found');
      const ws = await s.call(d.tokens.workspace, def.name, { ...args, websiteId: d.websites.events });
      expect(ws.error?.code, `${def.name} (workspace)`).toBe('not_found');
    }
    // list_sites of a connection anchored on a live site does not list it; the site limit ignores it.
    const other = await s.seed();
    await web.get('/');
    const [live] = await db()
      .select({ n: count() })
      .from(websites)
      .where(eq(websites.companyId, other.companyId));
    expect(live!.n).toBe(2);
    const webOther = await as(other.users.owner);
    await webOther.get(consoleOf(other.websites.events));
    await webOther.post(`${consoleOf(other.websites.events)}/delete`, { name: 'Harbor Bakery Events' });
    const listed = await s.call(other.tokens.workspace, 'list_sites', {});
    expect(listed.data!.sites.map((x: { websiteId: string }) => x.websiteId)).toEqual([other.websites.main]);
    await db().update(companies).set({ siteLimit: 2 }).where(eq(companies.id, other.companyId));
    const created = await s.call(other.tokens.all, 'create_site', {});
    expect(created.ok, JSON.stringify(created.error)).toBe(true);
  });

  it('is restored within 30 days, as it was and offline; purged with its blobs after', async () => {
    const d = await s.seed();
    const image = await s.call(d.tokens.all, 'generate_image', {
      prompt: 'a loaf',
      websiteId: d.websites.main,
    });
    expect(image.ok, JSON.stringify(image.error)).toBe(true);
    const before = await stateOf(d.websites.main);
    const web = await as(d.users.owner);
    await web.get(consoleOf(d.websites.main));
    await web.post(`${consoleOf(d.websites.main)}/delete`, { name: 'Harbor Bakery' });
    const home = await web.get('/');
    expect(home.html).toContain(`data-deleted-site="${d.websites.main}"`);
    const restored = await web.post(`/dashboard/sites/${d.websites.main}/restore`);
    expect(restored.status).toBe(303);
    const after = await stateOf(d.websites.main);
    expect(after.pages).toEqual(before.pages);
    expect(after.sections).toBe(before.sections);
    expect(after.site!.deletedAt).toBeNull();
    expect(after.site!.publishedRev).toBeNull(); // offline until the owner publishes
    expect((await s.call(d.tokens.all, 'list_pages', {})).ok).toBe(true);
    // A restore at the site limit is refused, nothing changed.
    await web.get(consoleOf(d.websites.main));
    await web.post(`${consoleOf(d.websites.main)}/delete`, { name: 'Harbor Bakery' });
    await db().update(companies).set({ siteLimit: 1 }).where(eq(companies.id, d.companyId));
    await web.get('/');
    const full = await web.post(`/dashboard/sites/${d.websites.main}/restore`);
    expect(full.status).toBe(409);
    expect(full.html).toContain('site_limit_reached');
    expect((await stateOf(d.websites.main)).site!.deletedAt).not.toBeNull();

    // 29 days on it is still there; 31 days on the sweep removes it and its blobs.
    const deletedAt = (await stateOf(d.websites.main)).site!.deletedAt!;
    const day = 86_400_000;
    expect(await purgeDeletedSites(db(), new Date(deletedAt.getTime() + 29 * day))).toBe(0);
    const [asset] = await db().select().from(assets).where(eq(assets.websiteId, d.websites.main));
    const blobs = s.sg.deps.services.blobs;
    expect(await blobs.get(asset!.sha256)).not.toBeNull();
    const later = new Date(deletedAt.getTime() + 31 * day);
    expect(await purgeDeletedSites(db(), later)).toBeGreaterThanOrEqual(1);
    expect((await stateOf(d.websites.main)).site).toBeUndefined();
    expect(await db().select().from(pages).where(eq(pages.websiteId, d.websites.main))).toEqual([]);
    await sweepBlobs(blobs, db(), later);
    expect(await blobs.get(asset!.sha256)).toBeNull();
    // The other site of the workspace is untouched.
    expect((await stateOf(d.websites.events)).site).toBeDefined();
  });
});

describe('refusals', () => {
  const actions = (d: Demo): Array<[string, Record<string, string>]> => [
    [`${consoleOf(d.websites.main)}/pages/${d.pages.about}/delete`, {}],
    [`${consoleOf(d.websites.main)}/publish`, { revision: 'x' }],
    [`${consoleOf(d.websites.main)}/unpublish`, {}],
    [`${consoleOf(d.websites.main)}/visitor-agents`, { on: '0' }],
    [`${consoleOf(d.websites.main)}/delete`, { name: 'Harbor Bakery' }],
    [`${consoleOf(d.websites.main)}/restore`, {}],
  ];

  it('an editor, a viewer and another tenant’s owner are refused; nothing changes', async () => {
    const d = await s.seed();
    const before = await stateOf(d.websites.main);
    for (const [who, status] of [
      [d.users.editor, 403],
      [d.users.viewer, 403],
      [d.users.otherOwner, 404],
    ] as const) {
      const web = await withToken(await as(who));
      for (const path of [
        consoleOf(d.websites.main),
        `${consoleOf(d.websites.main)}/publish`,
        `${consoleOf(d.websites.main)}/pages/${d.pages.about}/delete`,
      ]) {
        expect((await web.get(path)).status, `${who.email} GET ${path}`).toBe(status);
      }
      await web.get('/');
      for (const [path, form] of actions(d)) {
        const r = await web.post(path, form);
        // Restore is for deleted sites only: a live one is not found to everyone.
        const want = path.endsWith('/restore') ? 404 : status;
        expect(r.status, `${who.email} POST ${path}`).toBe(want);
      }
    }
    expect(await stateOf(d.websites.main)).toEqual(before);
  });

  it('without the CSRF token nothing happens', async () => {
    const d = await s.seed();
    const before = await stateOf(d.websites.main);
    const web = await withToken(await as(d.users.owner));
    for (const [path, form] of actions(d)) {
      expect((await web.post(path, form, { csrf: false })).status, path).toBe(403);
    }
    expect(await stateOf(d.websites.main)).toEqual(before);
  });
});
