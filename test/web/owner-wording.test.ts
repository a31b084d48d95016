// What the owner's pages say, over real HTTP: counts in words with the noun in the right number, no
// red badge for nothing, the approval diff showing each side's own text, one main heading on every
// review page and live page, and the full address of the site's endpoint for visitors' assistants.
import * as cheerio from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { publishDraft } from '../../src/domain/sites/publish.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const as = (who: { email: string; password: string }) => signIn(s.url, who.email, who.password);
const consoleOf = (id: string) => `/dashboard/sites/${id}`;
const publish = (d: Demo) =>
  s.sg.deps.services.db.transaction((tx) => publishDraft(tx, d.websites.main, new Date()));

async function prepare(d: Demo): Promise<string> {
  const r = await s.call(d.tokens.all, 'prepare_publish');
  expect(r.error).toBeUndefined();
  return r.data!.planId as string;
}

const heading = (d: Demo, text: string) =>
  s.call(d.tokens.all, 'update_section_text', {
    pageId: d.pages.home,
    sectionId: d.sections.hero,
    text: { heading: text },
  });

/** The text of every h1 of a page. */
const h1s = (html: string) => {
  const $ = cheerio.load(html);
  return $('h1')
    .map((_i, el) => $(el).text())
    .get();
};

describe('counts and badges', () => {
  it('says "1 change" and never "change(s)"; the waiting badge shows only when something waits', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    await publish(d);
    const idle = cheerio.load((await web.get('/')).html);
    expect(idle('#pending .count').length).toBe(0);
    expect(idle('#pending').text()).toContain('Nothing is waiting');

    expect((await heading(d, 'Warm bread')).error).toBeUndefined();
    const planId = await prepare(d);
    const home = await web.get('/');
    const $ = cheerio.load(home.html);
    expect($('#pending .count').text()).toBe('1');
    const pages = [home, await web.get('/approvals'), await web.get(`/approvals/${planId}`)];
    expect(pages[1]!.html).toContain('(1 change) to the live site');
    for (const p of pages) expect(p.html).not.toMatch(/[a-z]\((s|es)\)/);
  });
});

describe('the approval diff', () => {
  it('shows the live text as it is, spaces and line breaks kept, beside the draft', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    const live = 'Bread every day\nfrom six';
    const draft = 'Bread, every day from six';
    expect((await heading(d, live)).error).toBeUndefined();
    await publish(d);
    expect((await heading(d, draft)).error).toBeUndefined();
    const planId = await prepare(d);
    const $ = cheerio.load((await web.get(`/approvals/${planId}`)).html);
    const field = $(`[data-section="${d.sections.hero}"] .field`).filter(
      (_i, el) => $(el).find('.lbl').text() === 'Heading',
    );
    expect(field.length).toBe(1);
    expect(field.find('.old p').text()).toBe(live);
    expect(field.find('.new p').text()).toBe(draft);
    expect(field.find('.new ins').text()).toBe(', ');
  });
});

describe('one main heading', () => {
  it('on the approval page, the owner’s publish and unpublish reviews, and a live page without a hero', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    await publish(d);
    expect((await heading(d, 'Warm bread')).error).toBeUndefined();
    const planId = await prepare(d);
    expect(h1s((await web.get(`/approvals/${planId}`)).html)).toEqual(['Publish the draft of Harbor Bakery']);
    expect(h1s((await web.get(`${consoleOf(d.websites.main)}/publish`)).html)).toEqual([
      'Publish the draft of Harbor Bakery',
    ]);
    const unpublish = await web.get(`${consoleOf(d.websites.main)}/unpublish`);
    expect(h1s(unpublish.html)).toEqual(['Take Harbor Bakery offline']);
    // The owner's own unpublish is no plan.
    expect(unpublish.html).not.toContain('What this plan does');
    expect((await web.get(`/approvals/${planId}`)).html).toContain('What this plan does');
    const about = await fetch(`${s.url}/sites/${d.websites.main}/about`);
    expect(h1s(await about.text())).toEqual(['About']);
    const home = await fetch(`${s.url}/sites/${d.websites.main}/`);
    // A page with a hero keeps the hero's heading as its only h1.
    const shown = h1s(await home.text());
    expect(shown).toHaveLength(1);
    expect(shown[0]).not.toBe('Home');
  });
});

describe("visitors' assistants card", () => {
  it('shows the full address of the live site’s endpoint', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    const $ = cheerio.load((await web.get(consoleOf(d.websites.main))).html);
    const base = s.sg.deps.services.config.baseUrl;
    expect($('#assistants code').text()).toBe(`${base}/sites/${d.websites.main}/_api/mcp`);
  });
});

describe('what the owner is warned of and told', () => {
  it('the publish review warns of a page with no sections, on the approval page and the owner’s own review', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    expect((await s.call(d.tokens.all, 'create_page', { title: 'Opening hours', slug: 'hours' })).error).toBe(
      undefined,
    );
    const planId = await prepare(d);
    for (const path of [`/approvals/${planId}`, `${consoleOf(d.websites.main)}/publish`]) {
      const $ = cheerio.load((await web.get(path)).html);
      expect($('#empty-pages li').text(), path).toBe('Page “Opening hours” (/hours) has no sections');
    }
    // A draft whose pages all have sections has no such warning.
    const e = await s.seed();
    const other = await as(e.users.owner);
    expect((await heading(e, 'Warm bread')).error).toBeUndefined();
    const fine = cheerio.load((await other.get(`/approvals/${await prepare(e)}`)).html);
    expect(fine('#empty-pages').length).toBe(0);
  });

  it('a site taken offline says so on the home and the console; a never-published one is a draft', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    await publish(d);
    await web.get(`${consoleOf(d.websites.main)}/unpublish`);
    expect((await web.post(`${consoleOf(d.websites.main)}/unpublish`)).status).toBe(303);
    const home = cheerio.load((await web.get('/')).html);
    const card = home(`[data-site="${d.websites.main}"]`);
    expect(card.find('.state').text()).toBe('Offline');
    expect(card.text()).not.toContain('not published yet');
    const page = cheerio.load((await web.get(consoleOf(d.websites.main))).html);
    expect(page('#publishing .state').text()).toBe('Offline');
    // The agent's view: not live, and no time it went live.
    const site = await s.call(d.tokens.all, 'get_site_overview');
    expect(site.data).toMatchObject({ published: false, publishedAt: null });

    const fresh = await s.workspace();
    const owner = await as(fresh.users.owner);
    const draftCard = cheerio.load((await owner.get('/')).html)(`[data-site="${fresh.websites.main}"]`);
    expect(draftCard.find('.state').text()).toBe('Draft only');
  });

  it('recent activity names a deleted site, marked deleted', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    await web.get(`${consoleOf(d.websites.events)}/delete`);
    const r = await web.post(`${consoleOf(d.websites.events)}/delete`, { name: 'Harbor Bakery Events' });
    expect(r.status).toBe(303);
    const $ = cheerio.load((await web.get('/')).html);
    const sites = $('#recent-activity tbody tr')
      .map((_i, tr) => $(tr).find('td').eq(1).text())
      .get();
    expect(sites).toContain('Harbor Bakery Events (deleted)');
    expect(sites).not.toContain('—');
  });
});
