// The pages people look at, over real HTTP: the editor preview (signed-in members only) shows draft
// edits at once; the published site keeps the snapshot until a publish; assets follow visibility.
import { createHash } from 'node:crypto';
import * as cheerio from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { newId } from '../../src/kernel/ids.js';
import { assets } from '../../src/db/schema.js';
import { publishDraft } from '../../src/domain/sites/publish.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
let d: Demo;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
  d = await s.seed();
});
afterAll(() => s?.close());

/** Signs in through the real /login form; returns the session cookie header. */
async function signIn(email: string, password: string): Promise<string> {
  const page = await fetch(`${s.url}/login`);
  const pre = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = cheerio
    .load(await page.text())('input[name=_csrf]')
    .attr('value')!;
  const r = await fetch(`${s.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: pre },
    body: new URLSearchParams({ _csrf: csrf, email, password, next: '/' }),
  });
  expect(r.status).toBe(303);
  return r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const get = (path: string, cookie?: string) =>
  fetch(`${s.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
const text = async (path: string, cookie?: string) => cheerio.load(await (await get(path, cookie)).text());

describe('published site and editor preview', () => {
  let owner: string;
  beforeAll(async () => {
    owner = await signIn(d.users.owner.email, d.users.owner.password);
  });

  it('keeps the published page unchanged by draft edits until publish; the preview shows them', async () => {
    const live0 = await text(`/sites/${d.websites.main}/`);
    expect(live0('h2').first().text()).toBe('Welcome'); // published before the seed's draft edit
    const r = await s.call(d.tokens.default, 'update_section_text', {
      pageId: d.pages.home,
      sectionId: d.sections.hero,
      text: { heading: 'Cinnamon buns are back' },
    });
    expect(r.ok).toBe(true);
    const live1 = await text(`/sites/${d.websites.main}/`);
    expect(live1('h1').text()).toBe('Fresh bread every morning');
    const draft = await text(`/editor/${d.websites.main}`, owner);
    expect(draft('h1').text()).toBe('Cinnamon buns are back');
    expect(draft('h2').first().text()).toBe('Welcome to Harbor Bakery');
    expect(draft('.draft-bar').text()).toContain('Draft preview');

    await s.sg.deps.services.db.transaction((tx) => publishDraft(tx, d.websites.main, new Date()));
    const live2 = await text(`/sites/${d.websites.main}/`);
    expect(live2('h1').text()).toBe('Cinnamon buns are back');
    expect(live2('.draft-bar').length).toBe(0);
  });

  it('serves other pages, the blog index and posts; Markdown renders; unknown paths are 404', async () => {
    const about = await text(`/sites/${d.websites.main}/about`);
    expect(about('h2').first().text()).toBe('Our story');
    expect(
      about('nav a')
        .map((_i, a) => about(a).attr('href'))
        .get(),
    ).toContain(`/sites/${d.websites.main}/about`);
    const post = await text(`/sites/${d.websites.main}/blog/new-sourdough`);
    expect(post('article strong').text()).toBe('rye sourdough');
    const blog = await text(`/sites/${d.websites.main}/blog`);
    expect(blog('.posts a').attr('href')).toBe(`/sites/${d.websites.main}/blog/new-sourdough`);
    // Site-relative button links stay inside the site.
    const home = await text(`/sites/${d.websites.main}/`);
    expect(home('a.btn').first().attr('href')).toBe(`/sites/${d.websites.main}/services`);
    expect((await get(`/sites/${d.websites.main}/nope`)).status).toBe(404);
    expect((await get(`/sites/${d.websites.main}/%E0%A4%A`)).status).toBe(404);
    expect((await get('/sites/site_doesnotexist/')).status).toBe(404);
  });

  it('answers 404 on the published route for a site never published', async () => {
    expect((await get(`/sites/${d.websites.events}/`)).status).toBe(404);
    const draft = await text(`/editor/${d.websites.events}`, owner);
    expect(draft('h1').text()).toBe('Baking workshops');
  });

  it('sends a no-script CSP and nosniff on site pages', async () => {
    const r = await get(`/sites/${d.websites.main}/`);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('content-security-policy')).not.toContain('script-src');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await r.text()).not.toMatch(/<script/i);
  });

  it('hides hidden sections on the live site and marks them in the preview', async () => {
    const e = await s.seed();
    await s.call(e.tokens.default, 'set_section_hidden', {
      pageId: e.pages.home,
      sectionId: e.sections.hero,
      hidden: true,
    });
    await s.sg.deps.services.db.transaction((tx) => publishDraft(tx, e.websites.main, new Date()));
    const live = await text(`/sites/${e.websites.main}/`);
    // The hero is gone; the page's title is its one main heading instead.
    expect(
      live('h1')
        .map((_i, el) => live(el).text())
        .get(),
    ).toEqual(['Home']);
    const ownerE = await signIn(e.users.owner.email, e.users.owner.password);
    const draft = await text(`/editor/${e.websites.main}`, ownerE);
    expect(draft('section.is-hidden h1').text()).toBe('Fresh bread every morning');
  });
});

describe('who may see the editor preview', () => {
  it('redirects a visitor to sign in, 404s a non-member, shows a viewer member', async () => {
    const anon = await get(`/editor/${d.websites.main}`);
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toBe(
      `/login?next=${encodeURIComponent(`/editor/${d.websites.main}`)}`,
    );
    const rival = await signIn(d.users.otherOwner.email, d.users.otherOwner.password);
    expect((await get(`/editor/${d.websites.main}`, rival)).status).toBe(404);
    expect((await get(`/editor/${d.websites.otherTenant}`, rival)).status).toBe(200);
    const viewer = await signIn(d.users.viewer.email, d.users.viewer.password);
    expect((await get(`/editor/${d.websites.main}/about`, viewer)).status).toBe(200);
    expect((await get(`/editor/${d.websites.events}`, viewer)).status).toBe(404);
  });
});

describe('library assets', () => {
  it('serves an asset of a published site to anyone and of a draft-only site to members only', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const sha = await s.sg.deps.services.blobs.put(png);
    expect(sha).toBe(createHash('sha256').update(png).digest('hex'));
    const live = newId('asset');
    const draftOnly = newId('asset');
    const row = { mime: 'image/png', bytes: png.length, sha256: sha, source: 'upload' };
    await s.sg.deps.services.db.insert(assets).values([
      { id: live, websiteId: d.websites.main, ...row },
      { id: draftOnly, websiteId: d.websites.events, ...row },
    ]);
    const r = await get(`/assets/${live}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await r.arrayBuffer()).equals(png)).toBe(true);
    expect((await get(`/assets/${draftOnly}`)).status).toBe(404);
    const editor = await signIn(d.users.editor.email, d.users.editor.password);
    expect((await get(`/assets/${draftOnly}`, editor)).status).toBe(200);
    const rival = await signIn(d.users.otherOwner.email, d.users.otherOwner.password);
    expect((await get(`/assets/${draftOnly}`, rival)).status).toBe(404);
    expect((await get('/assets/asset_doesnotexist0000')).status).toBe(404);

    // An image section may name the site's own asset; it renders as /assets/<id>.
    const add = await s.call(d.tokens.default, 'add_section', {
      pageId: d.pages.about,
      type: 'image',
      content: { url: live, alt: 'Our oven' },
    });
    expect(add.ok).toBe(true);
    const owner = await signIn(d.users.owner.email, d.users.owner.password);
    const page = await text(`/editor/${d.websites.main}/about`, owner);
    expect(page('img[alt="Our oven"]').attr('src')).toBe(`/assets/${live}`);
    // Another site's asset id is refused at write time, like one that exists nowhere (R-SEC-4).
    const foreign = await s.call(d.tokens.default, 'add_section', {
      pageId: d.pages.about,
      type: 'image',
      content: { url: draftOnly, alt: 'x' },
    });
    expect(foreign.error?.code).toBe('not_found');
  });
});
